/** JSON text as people and models write it: strict JSON, JSON with comments and trailing commas, JSON inside prose. */
export { extractJson, parseJsoncText, parseJsonText, type JsonParseResult, type JsonSyntaxProblem } from './jsonText';
