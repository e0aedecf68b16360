// @ts-check
'use strict';

// The driver's entry point: loads one TypeScript compiler (the path given as
// the first argument) and answers JSON-line requests on stdin until stdin
// closes. Requests are answered in the order they arrive; compare runs its
// questions in worker threads (compare_pool.js), everything else is
// synchronous inside its request.

const protocol = require('./protocol');
const { extractSurface } = require('./surface');
const { compareInWorkers } = require('./compare_pool');

function main() {
  // This thread's heap is sized by now (uptide passes --max-old-space-size,
  // or NODE_OPTIONS does). The flag is process-wide: left set, it would
  // override every comparison worker's own limit (compare_pool.js).
  require('v8').setFlagsFromString('--max-old-space-size=0');
  const tsPath = process.argv[2];
  if (!tsPath) {
    process.stderr.write('usage: node main.js <path to typescript.js>\n');
    process.exit(2);
  }
  /** @type {typeof import('typescript')} */
  let ts;
  try {
    ts = require('./load').loadCompiler(tsPath);
  } catch (err) {
    process.stderr.write(`cannot load the TypeScript compiler at ${tsPath}: ${err && /** @type {Error} */ (err).message}\n`);
    process.exit(3);
  }
  require('./regular').guardSys(ts);
  /** @type {Record<string, (params: any, rc: import('./protocol').RequestContext) => any>} */
  const methods = {
    hello: () => ({ typescript: ts.version, node: process.versions.node }),
    surface: (params) => extractSurface(ts, params),
    compare: (params, rc) => compareInWorkers(tsPath, params, rc.progress),
    compile: (params) => require('./compile').compile(ts, params),
    usages: (params) => require('./usages').findUsages(ts, params),
    native: (params) => require('./native').nativePlan(ts, params),
    enclosing: (params) => require('./scopes').enclosing(ts, params),
    ancestors: (params) => require('./scopes').ancestors(ts, params),
    project: (params) => require('./project').project(ts, params),
    syntaxNeeds: (params) => require('./syntax').syntaxNeeds(ts, params),
    // The files parsed since the last call ({record: true} records the
    // next ones): what tests see of the parsed files' sharing.
    parsed: (params) => ({ files: require('./sources').takeParsed(!!(params && params.record)) }),
    // check is over and the driver goes on (the fix runner's compiles):
    // what only check reads again goes; the parsed files stay.
    release: () => {
      require('./workspace').release();
      require('./compile').release();
      return {};
    },
  };
  // stdout is the protocol's alone: whatever else writes there (a
  // compiler host's trace under traceResolution, ts.sys.write) goes to
  // stderr instead.
  const channel = { write: process.stdout.write.bind(process.stdout) };
  process.stdout.write = /** @type {any} */ (process.stderr.write.bind(process.stderr));
  protocol.serve(process.stdin, /** @type {any} */ (channel), methods);
}

main();
