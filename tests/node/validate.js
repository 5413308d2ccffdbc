// Validates glTF/GLB files with the Khronos glTF validator; prints one JSON line per file:
// {"file", "errors", "warnings", "infos", "messages": [first 20 error/warning messages]}.
// Usage: node validate.js FILE...   Exit 0 when every file was read (the verdicts are in the output).
'use strict';
const fs = require('fs');
const path = require('path');
const validator = require('gltf-validator');

async function one(file) {
  const bytes = new Uint8Array(fs.readFileSync(file));
  const report = await validator.validateBytes(bytes, {
    uri: path.basename(file),
    maxIssues: 0,
    externalResourceFunction: (uri) =>
      new Promise((resolve, reject) => {
        fs.readFile(path.resolve(path.dirname(file), decodeURIComponent(uri)), (err, data) =>
          err ? reject(err.toString()) : resolve(new Uint8Array(data)));
      }),
  });
  const i = report.issues;
  const messages = i.messages.filter((m) => m.severity <= 1).slice(0, 20)
    .map((m) => `${m.code} ${m.pointer || ''}: ${m.message}`);
  return {file, errors: i.numErrors, warnings: i.numWarnings, infos: i.numInfos, messages};
}

(async () => {
  for (const f of process.argv.slice(2)) console.log(JSON.stringify(await one(f)));
})().catch((e) => { console.error(String(e)); process.exit(2); });
