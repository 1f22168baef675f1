// Validates SARIF logs against the SARIF 2.1.0 JSON schema (the copy that
// ships in @microsoft/sarif-multitool-linux) with ajv.
// Usage: node validate_sarif.js TOOLS_DIR SCHEMA LOG...
'use strict';
const fs = require('fs');
const path = require('path');
const [toolsDir, schemaPath, ...logs] = process.argv.slice(2);
const modules = path.join(toolsDir, 'node_modules');
const Ajv2020 = require(path.join(modules, 'ajv', 'dist', '2020')).default;
const addFormats = require(path.join(modules, 'ajv-formats'));
const schema = JSON.parse(fs.readFileSync(schemaPath, 'utf8'));
const ajv = new Ajv2020({allErrors: true, strict: false});
addFormats(ajv);
const validate = ajv.compile(schema);
let failed = 0;
for (const log of logs) {
  const data = JSON.parse(fs.readFileSync(log, 'utf8'));
  if (validate(data)) {
    console.log(`${log}: valid SARIF ${data.version}`);
  } else {
    failed++;
    for (const e of validate.errors)
      console.log(`${log}: ${e.instancePath || '/'} ${e.message}`);
  }
}
process.exit(failed ? 1 : 0);
