import { InvalidReferenceError } from "./errors.js";

/** Values a template can use: template strings (`u`) and generator indices (`i`). */
export type TemplateScope = ReadonlyMap<string, string | number>;

type Token =
  | { kind: "num"; value: number }
  | { kind: "name"; value: string }
  | { kind: "op"; value: string };

function tokenize(expression: string, where: string): Token[] {
  const tokens: Token[] = [];
  const pattern = /\s*(?:(\d+(?:\.\d+)?)|([A-Za-z_][A-Za-z0-9_]*)|(\/\/|\*\*|[-+*/%()]))/y;
  let at = 0;
  while (at < expression.length) {
    if (/^\s*$/.test(expression.slice(at))) break;
    pattern.lastIndex = at;
    const match = pattern.exec(expression);
    if (!match) {
      throw new InvalidReferenceError(
        where,
        `unsupported template expression ${JSON.stringify(expression)} (only names, numbers, + - * / // % ** and parentheses)`,
      );
    }
    at = pattern.lastIndex;
    if (match[1] !== undefined) tokens.push({ kind: "num", value: Number(match[1]) });
    else if (match[2] !== undefined) tokens.push({ kind: "name", value: match[2] });
    else tokens.push({ kind: "op", value: match[3] });
  }
  return tokens;
}

/**
 * Evaluates a Jinja-style expression as kerchunk's generators use them (`i`, `(i + 1) * 1000`,
 * `u`): names from the scope, numbers, `+ - * / // % **`, unary minus and parentheses. A lone
 * name may be a string (a template); arithmetic needs numbers.
 */
function evaluate(expression: string, scope: TemplateScope, where: string): string | number {
  const tokens = tokenize(expression, where);
  let pos = 0;
  const fail = (why: string): never => {
    throw new InvalidReferenceError(
      where,
      `template expression ${JSON.stringify(expression)}: ${why}`,
    );
  };
  const peek = () => tokens[pos];
  const isOp = (value: string) => peek()?.kind === "op" && peek()!.value === value;
  const number = (value: string | number): number =>
    typeof value === "number" ? value : fail(`${JSON.stringify(value)} is a string, not a number`);
  const primary = (): string | number => {
    const token = tokens[pos++];
    if (token === undefined) return fail("ends too early");
    if (token.kind === "num") return token.value;
    if (token.kind === "name") {
      const value = scope.get(token.value);
      return value === undefined ? fail(`unknown name ${JSON.stringify(token.value)}`) : value;
    }
    if (token.value === "(") {
      const inner = sum();
      if (!isOp(")")) fail("missing )");
      pos++;
      return inner;
    }
    if (token.value === "-") return -number(power());
    if (token.value === "+") return number(power());
    return fail(`unexpected ${JSON.stringify(token.value)}`);
  };
  const power = (): string | number => {
    const base = primary();
    if (!isOp("**")) return base;
    pos++;
    return number(base) ** number(power());
  };
  const product = (): string | number => {
    let left = power();
    while (isOp("*") || isOp("/") || isOp("//") || isOp("%")) {
      const op = tokens[pos++].value;
      const right = number(power());
      const l = number(left);
      if ((op === "/" || op === "//" || op === "%") && right === 0) fail("division by zero");
      left =
        op === "*"
          ? l * right
          : op === "/"
            ? l / right
            : op === "//"
              ? Math.floor(l / right)
              : ((l % right) + right) % right;
    }
    return left;
  };
  const sum = (): string | number => {
    let left = product();
    while (isOp("+") || isOp("-")) {
      const op = tokens[pos++].value;
      const right = product();
      if (op === "+" && typeof left === "string" && typeof right === "string") left += right;
      else left = op === "+" ? number(left) + number(right) : number(left) - number(right);
    }
    return left;
  };
  const value = sum();
  if (pos !== tokens.length) fail(`unexpected ${JSON.stringify(tokens[pos].value)}`);
  return value;
}

/** Replaces every `{{ expression }}` in a text with its value. */
export function renderTemplate(text: string, scope: TemplateScope, where: string): string {
  if (!text.includes("{{")) return text;
  return text.replace(/\{\{(.*?)\}\}/g, (_, expression: string) =>
    String(evaluate(expression, scope, where)),
  );
}
