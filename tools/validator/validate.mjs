// Validates a binary glTF file with the Khronos glTF validator.
// Usage: node tools/validator/validate.mjs FILE.glb
// Prints the counts of errors, warnings, infos and hints and every error and warning;
// exits 1 when the file has any error (or cannot be read), 77 when the validator package is
// not installed (run `npm ci --prefix tools/validator`), 0 otherwise.
import { readFile } from 'node:fs/promises';
import path from 'node:path';

let validator;
try {
  validator = (await import('gltf-validator')).default;
} catch {
  console.log('skipped: gltf-validator is not installed; run: npm ci --prefix tools/validator');
  process.exit(77);
}

const file = process.argv[2];
if (!file) {
  console.error('usage: node validate.mjs FILE.glb');
  process.exit(2);
}

let bytes;
try {
  bytes = new Uint8Array(await readFile(file));
} catch (err) {
  console.error(`validate: error: cannot read ${file}: ${err.message}`);
  process.exit(1);
}

const report = await validator.validateBytes(bytes, {
  uri: path.basename(file),
  maxIssues: 0,
  // A .glb carries no external resources; refuse any a file asks for.
  externalResourceFunction: (uri) =>
    Promise.reject(new Error(`external resource not allowed: ${uri}`)),
});

const issues = report.issues;
console.log(`${file}: ${issues.numErrors} errors, ${issues.numWarnings} warnings, ` +
            `${issues.numInfos} infos, ${issues.numHints} hints`);
const severityName = ['error', 'warning', 'info', 'hint'];
for (const m of issues.messages) {
  if (m.severity <= 1 || process.env.VALIDATE_VERBOSE) {
    console.log(`  ${severityName[m.severity]} ${m.code}: ${m.message} (${m.pointer ?? ''})`);
  }
}
const info = report.info ?? {};
if (info.totalVertexCount !== undefined) {
  console.log(`  vertices: ${info.totalVertexCount}, triangles: ${info.totalTriangleCount}, ` +
              `animations: ${info.animationCount}, materials: ${info.materialCount}, ` +
              `skinned: ${info.hasSkins}, max influences: ${info.maxInfluences}`);
}
process.exit(issues.numErrors > 0 ? 1 : 0);
