// @ts-check
'use strict';

// `tsc -p <config> <flags>` inside the driver, for the fix runner's
// compiles before and after the upgrade. It takes the steps tsc's command
// line takes (parse the command line, read the config, one fresh program,
// the diagnostics emitFilesAndReportErrors reports, the exit status) and
// writes what tsc writes, so the caller reads one output whichever ran it.
// What differs is what is kept between runs: the compiler is loaded once
// per driver, and the driver's parsed files (sources.js) are handed to the
// next program while their text is unchanged, so the compile after an
// upgrade, in a driver check already used, parses and binds only what the
// upgrade and the edits changed. Every run still builds a new program and
// a new checker.

const path = require('path');
const { shareSources } = require('./sources');
const { atLeast } = require('./compat');
const { inside } = require('./paths');
const { DriverError } = require('./protocol');

/** Thrown to stop a run where tsc would exit. */
class Exit {
  /** @param {number} code */
  constructor(code) {
    this.code = code;
  }
}

/**
 * @param {typeof import('typescript')} ts
 * @param {any} params {cwd, config, args, typescriptDir}
 * @returns {{stdout: string, exitCode: number}}
 */
function project(ts, params) {
  const cwd = abs(params.cwd, 'cwd');
  const config = abs(params.config, 'config');
  const args = Array.isArray(params.args) ? params.args.map(String) : [];
  // The compiler this driver loaded, and the installation of the same
  // compiler the caller named: its default libraries are read from the
  // loaded one (so runs in different checkouts share them) and named as the
  // caller's.
  const loadedDir = path.dirname(path.dirname(ts.sys.getExecutingFilePath()));
  const asDir = typeof params.typescriptDir === 'string' && path.isAbsolute(params.typescriptDir) ? params.typescriptDir : loadedDir;
  const rename = (/** @type {string} */ f) => (asDir !== loadedDir && inside(loadedDir, f) ? path.join(asDir, path.relative(loadedDir, f)) : f);

  let stdout = '';
  const newLine = ts.sys.newLine;
  const formatHost = {
    getCurrentDirectory: () => cwd,
    getNewLine: () => newLine,
    getCanonicalFileName: ts.sys.useCaseSensitiveFileNames ? (/** @type {string} */ f) => f : (/** @type {string} */ f) => f.toLowerCase(),
  };
  /** tsc's reporter without --pretty. @param {import('typescript').Diagnostic} d */
  const report = (d) => {
    stdout += ts.formatDiagnostic(renamed(d, rename), formatHost);
  };
  const write = (/** @type {string} */ s) => {
    stdout += s + newLine;
  };
  const finish = (/** @type {number} */ code) => ({ stdout: asDir === loadedDir ? stdout : stdout.split(loadedDir + path.sep).join(asDir + path.sep), exitCode: code });

  // tsc's own steps, internal to the compiler and so absent from its typings.
  const tsc = /** @type {any} */ (ts);
  try {
    const cmd = ts.parseCommandLine(['-p', config, ...args]);
    if (cmd.errors.length > 0) {
      cmd.errors.forEach(report);
      throw new Exit(1);
    }
    const configFile = ts.sys.directoryExists(config) ? path.join(config, 'tsconfig.json') : config;
    if (!ts.sys.fileExists(configFile)) {
      report(tsc.createCompilerDiagnostic(configFile === config ? tsc.Diagnostics.The_specified_path_does_not_exist_Colon_0 : tsc.Diagnostics.Cannot_find_a_tsconfig_json_file_at_the_specified_directory_Colon_0, config));
      throw new Exit(1);
    }
    const options = tsc.convertToOptionsWithAbsolutePaths
      ? tsc.convertToOptionsWithAbsolutePaths(cmd.options, (/** @type {string} */ f) => tsc.getNormalizedAbsolutePath(f, cwd))
      : cmd.options;
    const parseHost = {
      useCaseSensitiveFileNames: ts.sys.useCaseSensitiveFileNames,
      readDirectory: ts.sys.readDirectory,
      fileExists: ts.sys.fileExists,
      readFile: ts.sys.readFile,
      getCurrentDirectory: () => cwd,
      onUnRecoverableConfigFileDiagnostic: (/** @type {import('typescript').Diagnostic} */ d) => {
        report(d);
        throw new Exit(1);
      },
    };
    const parsed = ts.getParsedCommandLineOfConfigFile(configFile, options, parseHost, new Map(), cmd.watchOptions);
    if (!parsed) throw new Exit(1);
    const program = ts.createProgram({
      rootNames: parsed.fileNames,
      options: parsed.options,
      projectReferences: parsed.projectReferences,
      host: sharingHost(ts, parsed.options, cwd, write),
      configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(parsed),
    });
    const status = tsc.emitFilesAndReportErrorsAndGetExitStatus(program, report, write);
    if (params.seedBaseline === true) {
      // The checkout's compile before an upgrade is check's baseline too.
      require('./compile').seedBaseline(ts, program, parsed.options);
    }
    return finish(status);
  } catch (err) {
    if (err instanceof Exit) return finish(err.code);
    throw err;
  }
}

/**
 * A compiler host as tsc makes it, with the driver's shared parsed files
 * (sources.js: the files check's programs parsed too), each handed out
 * only while its text is the file's text: a verification never trusts a
 * modification time alone.
 * @param {typeof import('typescript')} ts
 * @param {import('typescript').CompilerOptions} options
 * @param {string} cwd
 * @param {(s: string) => void} write tsc's stdout
 */
function sharingHost(ts, options, cwd, write) {
  const host = ts.createCompilerHost(options);
  const parse = host.getSourceFile.bind(host);
  // Before 5.1 a program keeps its module resolutions on the SourceFile:
  // tsc's resolution and check's (which maps workspace packages to their
  // sources) must not meet there.
  shareSources(ts, host, options, atLeast(ts, 5, 1) ? '' : 'tsc -p');
  // Where tsc writes --traceResolution: its output, never the protocol.
  host.trace = write;
  const shared = host.getSourceFile;
  host.getCurrentDirectory = () => cwd;
  host.getSourceFile = (fileName, languageVersionOrOptions, onError, shouldCreateNewSourceFile) => {
    const sf = shared(fileName, languageVersionOrOptions, onError, shouldCreateNewSourceFile);
    if (!sf || sf.text === host.readFile(fileName)) return sf;
    return parse(fileName, languageVersionOrOptions, onError, true);
  };
  return host;
}

/**
 * A diagnostic whose file is named as rename says.
 * @param {import('typescript').Diagnostic} d
 * @param {(f: string) => string} rename
 */
function renamed(d, rename) {
  if (!d.file || rename(d.file.fileName) === d.file.fileName) return d;
  const file = Object.create(d.file, { fileName: { value: rename(d.file.fileName) } });
  return { ...d, file };
}

/**
 * @param {unknown} p
 * @param {string} what
 */
function abs(p, what) {
  if (typeof p !== 'string' || !path.isAbsolute(p)) throw new DriverError('BAD_REQUEST', `${what} must be an absolute path`);
  return p;
}

module.exports = { project };
