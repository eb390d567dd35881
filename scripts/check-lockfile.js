#!/usr/bin/env node
// Refuses a package-lock.json that only installs from a warm npm cache: every package entry must
// name a `version` (or be a `link`). An entry without one makes `npm ci` stop with
// "Invalid Version:" on a new machine. The lock file is written by npm alone
// (`npm install --package-lock-only`), never edited by hand.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

function lockEntriesWithoutVersion(lock) {
  return Object.entries(lock.packages ?? {})
    .filter(([key, entry]) => key !== '' && !entry.link && typeof entry.version !== 'string')
    .map(([key]) => key);
}

if (require.main === module) {
  const file = path.resolve(process.argv[2] ?? path.join(__dirname, '..', 'package-lock.json'));
  const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
  if (lock.lockfileVersion < 2) {
    console.error(`${file}: lockfileVersion ${lock.lockfileVersion}; npm 7 or later writes 3.`);
    process.exit(1);
  }
  const bad = lockEntriesWithoutVersion(lock);
  if (bad.length > 0) {
    console.error(`${file}: entries without a version (regenerate with npm install --package-lock-only):`);
    for (const key of bad) console.error(`  ${key}`);
    process.exit(1);
  }
  console.log(
    `${path.basename(file)}: ${Object.keys(lock.packages).length - 1} entries, each with a version or link`,
  );
}

module.exports = { lockEntriesWithoutVersion };
