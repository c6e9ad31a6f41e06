// What importing the umbrella registers: the string and bytes data types with their codecs,
// the Arrow data type and codec, and the http(s) and zip locations of open("…").
import "@z/dtypes-arrow/register";
import "@z/dtypes-vlen/register";
import "./locations.js";
