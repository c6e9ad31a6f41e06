import * as esbuild from "esbuild";
const app = process.argv[2];
const r = await esbuild.build({ entryPoints: { main: `/work/wt-bundle/packages/zarr/test/bundlers/apps/${app}.js` }, bundle: true, format: "esm", splitting: true, minify: true, platform: "browser", outdir: `/tmp/meta-${app}`, metafile: true, logLevel: "silent" });
const outs = r.metafile.outputs;
for (const [f, o] of Object.entries(outs)) {
  if (f.endsWith(".map")) continue;
  const inputs = Object.entries(o.inputs).sort((a,b)=>b[1].bytesInOutput-a[1].bytesInOutput);
  console.log(f, o.bytes, o.entryPoint ?? "", o.imports.map(i=>i.kind[0]+":"+i.path.split("/").pop()).join(" "));
  const byPkg = {};
  for (const [i, v] of inputs) { const k = i.replace(/.*node_modules\/\.pnpm\//,"").split("/").slice(0,3).join("/"); byPkg[k]=(byPkg[k]??0)+v.bytesInOutput; }
  if (o.bytes > 20000) console.log("   ", Object.entries(byPkg).sort((a,b)=>b[1]-a[1]).slice(0,14).map(([k,v])=>k+"="+v).join("  "));
}
