/**
 * Stops `npm start`, `npm run dev` and `npm test` at once, with one line saying what to install, when
 * the running Node.js is older than package.json's `engines.node` (otherwise they fail later, deep
 * inside a dependency). It must itself run on old Node: CommonJS, no dependencies, ES5-level syntax.
 * Not hooked into `npm install`: the install (and its postinstall) still works on the older Node, so
 * a machine can install first and fetch Node 22 afterwards.
 *
 *   node scripts/check-node.cjs     exit 0 silently, or exit 1 with the message on stderr
 */
'use strict';
var fs = require('fs');
var path = require('path');

var root = path.join(__dirname, '..');
var setupScript = path.join(root, 'scripts', 'setup-node.sh');

/** The setup script as the person typing can run it: relative to where they ran npm (npm sets INIT_CWD). */
function setupCommand(fromDirectory) {
  var relative = path.relative(fromDirectory, setupScript);
  // A bare name would be looked up on PATH instead.
  if (relative.indexOf(path.sep) === -1) relative = '.' + path.sep + relative;
  return 'eval "$(' + relative + ')"';
}

/** `>=22.18` (the only form we write in engines) as [22, 18, 0]; null when not understood. */
function minimumOf(range) {
  var match = /^\s*>=\s*v?(\d+)(?:\.(\d+))?(?:\.(\d+))?\s*$/.exec(range || '');
  if (!match) return null;
  return [Number(match[1]), Number(match[2] || 0), Number(match[3] || 0)];
}

function versionOf(text) {
  var match = /^v?(\d+)\.(\d+)\.(\d+)/.exec(text || '');
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : null;
}

function isOlder(version, minimum) {
  for (var i = 0; i < 3; i += 1) {
    if (version[i] !== minimum[i]) return version[i] < minimum[i];
  }
  return false;
}

/**
 * The one-line message for `version` against `range`, or null when it is recent enough.
 * `fromDirectory`: where the command was typed, so the setup command given runs from there.
 */
function problem(version, range, fromDirectory) {
  var minimum = minimumOf(range);
  var current = versionOf(version);
  if (!minimum || !current || !isOlder(current, minimum)) return null;
  return 'mailflow needs Node.js ' + minimum[0] + '.' + minimum[1] + ' or newer (' + minimum[0] + ' LTS), this is ' +
    version + ': install it, or run  ' + setupCommand(fromDirectory) + '  (fetches Node ' + minimum[0] +
    ' into .tools/node once and puts it first on PATH in this shell), then try again.';
}

function engineRange() {
  return JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).engines.node;
}

module.exports = { problem: problem, engineRange: engineRange, minimumOf: minimumOf };

if (require.main === module) {
  var message = problem(process.version, engineRange(), process.env.INIT_CWD || process.cwd());
  if (message) {
    process.stderr.write(message + '\n');
    process.exit(1);
  }
}
