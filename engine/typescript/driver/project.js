// @ts-check
'use strict';

// `tsc -p <config> <flags>` inside the driver, for the fix runner's
// before/after compiles. It takes the steps tsc's command line takes (parse
// the command line, read the config, one fresh program, the diagnostics
// emitFilesAndReportErrors reports, the exit status) and writes what tsc
// writes, so the caller reads one output whichever ran it. What differs is
// what is kept between runs: the compiler is loaded once per driver, and a
// source file parsed and bound by one run is handed to the next when its
// path, text and options are the same (what a language service's document
// registry does), so the compile after an upgrade parses and binds only the
// files that changed. Every run still builds a new program and a new
// checker.

const path = require('path');
const { atLeast, tscJSDocMode } = require('./compat');
const { DriverError } = require('./protocol');

/**
 * Source files kept between runs, by path, options and parse settings.
 * @type {Map<string, import('typescript').SourceFile>}
 */
const kept = new Map();

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

  try {
    const cmd = ts.parseCommandLine(['-p', config, ...args]);
    if (cmd.errors.length > 0) {
      cmd.errors.forEach(report);
      throw new Exit(1);
    }
    let configFile = ts.sys.directoryExists(config) ? path.join(config, 'tsconfig.json') : config;
    if (!ts.sys.fileExists(configFile)) {
      report(ts.createCompilerDiagnostic(configFile === config ? ts.Diagnostics.The_specified_path_does_not_exist_Colon_0 : ts.Diagnostics.Cannot_find_a_tsconfig_json_file_at_the_specified_directory_Colon_0, config));
      throw new Exit(1);
    }
    const options = ts.convertToOptionsWithAbsolutePaths
      ? ts.convertToOptionsWithAbsolutePaths(cmd.options, (/** @type {string} */ f) => ts.getNormalizedAbsolutePath(f, cwd))
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
      host: sharingHost(ts, parsed.options, cwd, loadedDir),
      configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(parsed),
    });
    return finish(ts.emitFilesAndReportErrorsAndGetExitStatus(program, report, write));
  } catch (err) {
    if (err instanceof Exit) return finish(err.code);
    throw err;
  }
}

/**
 * A compiler host as tsc makes it, whose getSourceFile hands back a file a
 * previous run parsed when its path, text and parse settings match. Before
 * TypeScript 5 the program sets a file's module format after the host
 * returns it, so there only the compiler's own libraries are shared.
 * @param {typeof import('typescript')} ts
 * @param {import('typescript').CompilerOptions} options
 * @param {string} cwd
 * @param {string} loadedDir
 */
function sharingHost(ts, options, cwd, loadedDir) {
  const host = ts.createCompilerHost(options);
  const mode = tscJSDocMode(ts);
  if (mode !== undefined) /** @type {any} */ (host).jsDocParsingMode = mode;
  host.getCurrentDirectory = () => cwd;
  const optionsKey = keyOf(options);
  const everything = atLeast(ts, 5, 0);
  const parse = host.getSourceFile;
  host.getSourceFile = (fileName, languageVersionOrOptions, onError, shouldCreateNewSourceFile) => {
    if (shouldCreateNewSourceFile || !(everything || inside(loadedDir, fileName))) {
      return parse.call(host, fileName, languageVersionOrOptions, onError, shouldCreateNewSourceFile);
    }
    const text = host.readFile(fileName);
    const key = fileName + '\0' + optionsKey + '\0' + keyOf(languageVersionOrOptions);
    const hit = kept.get(key);
    if (hit && text !== undefined && hit.text === text) return hit;
    const sf = parse.call(host, fileName, languageVersionOrOptions, onError, shouldCreateNewSourceFile);
    if (sf) kept.set(key, sf);
    else kept.delete(key);
    return sf;
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
 * A stable key for options or parse settings, functions left out.
 * @param {unknown} v
 */
function keyOf(v) {
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  const o = /** @type {Record<string, unknown>} */ (v);
  return JSON.stringify(Object.keys(o).sort().filter((k) => typeof o[k] !== 'function' && k !== 'configFile').map((k) => [k, o[k]]));
}

/**
 * @param {string} dir
 * @param {string} f
 */
function inside(dir, f) {
  const rel = path.relative(dir, f);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
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
