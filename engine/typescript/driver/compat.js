// @ts-check
'use strict';

// The one place that papers over the differences between the TypeScript
// compilers the driver loads (a repository's own, 4.5 to 6.x, or the pinned
// one). Every other driver file asks here rather than testing a version or
// the presence of an API itself, so supporting one more compiler means
// changing this file only.
//
// What differs, oldest first:
//   4.7  createSourceFile takes an options object (languageVersion,
//        impliedNodeFormat); before, a bare ScriptTarget. node16/nodenext
//        resolution, resolution modes (getModeForResolutionAtIndex,
//        getModeForUsageLocation), getImpliedNodeFormatForFile.
//   4.9  satisfies expressions.
//   5.0  moduleResolution bundler; the resolveModuleNameLiterals and
//        resolveTypeReferenceDirectiveReferences host hooks.
//   5.3  JSDocParsingMode (and getModeForUsageLocation's compiler options).
//   5.4  module preserve.

/**
 * [major, minor] of the loaded compiler.
 * @param {typeof import('typescript')} ts
 */
function versionOf(ts) {
  const [major, minor] = String(ts.versionMajorMinor || ts.version || '0.0').split('.').map((n) => parseInt(n, 10) || 0);
  return { major, minor };
}

/**
 * Whether the compiler is at least major.minor.
 * @param {typeof import('typescript')} ts
 * @param {number} major
 * @param {number} minor
 */
function atLeast(ts, major, minor) {
  const v = versionOf(ts);
  return v.major > major || (v.major === major && v.minor >= minor);
}

/**
 * The JSDoc parsing modes (TypeScript 5.3+), undefined before: older
 * compilers always parse all of it.
 * @param {typeof import('typescript')} ts
 * @returns {{ParseAll: number, ParseNone: number, ParseForTypeErrors: number, ParseForTypeInfo: number} | undefined}
 */
function jsDocModes(ts) {
  const modes = /** @type {any} */ (ts).JSDocParsingMode;
  return modes && modes.ParseNone !== undefined ? modes : undefined;
}

/**
 * How tsc itself parses JSDoc, undefined for compilers without the choice.
 * @param {typeof import('typescript')} ts
 */
function tscJSDocMode(ts) {
  const modes = jsDocModes(ts);
  return modes ? modes.ParseForTypeErrors : undefined;
}

/**
 * The third argument of createSourceFile: what the compiler passed to
 * getSourceFile (a ScriptTarget, or from 4.7 an options object), with JSDoc
 * not parsed into nodes when skipJSDoc is set and the compiler can skip it.
 * A compiler before 4.7 gets the bare language version it understands.
 * @param {typeof import('typescript')} ts
 * @param {any} languageVersionOrOptions
 * @param {boolean} skipJSDoc
 * @returns {any}
 */
function sourceFileOptions(ts, languageVersionOrOptions, skipJSDoc) {
  const object = typeof languageVersionOrOptions === 'object' && languageVersionOrOptions !== null;
  if (!atLeast(ts, 4, 7)) return object ? languageVersionOrOptions.languageVersion : languageVersionOrOptions;
  const opts = object ? { ...languageVersionOrOptions } : { languageVersion: languageVersionOrOptions };
  const modes = jsDocModes(ts);
  if (skipJSDoc && modes) opts.jsDocParsingMode = modes.ParseNone;
  return opts;
}

/**
 * moduleResolution bundler where the compiler has it (5.0+), node (node10)
 * before: for programs over package declarations, where both read the
 * types fields alike and bundler adds the exports maps.
 * @param {typeof import('typescript')} ts
 */
function bundlerResolution(ts) {
  const kinds = /** @type {any} */ (ts.ModuleResolutionKind);
  return kinds.Bundler !== undefined ? kinds.Bundler : kinds.NodeJs;
}

/**
 * The module settings of a program no config configures, as Node loads
 * the files: nodenext (4.7+) reads exports maps, a package's "type" and
 * .mjs/.cjs as Node does; before 4.7 (where node12/nodenext were nightly
 * only) CommonJS with node (node10) resolution, the closest it has.
 * @param {typeof import('typescript')} ts
 * @returns {{module: number, moduleResolution: number}}
 */
function nodeModuleOptions(ts) {
  const kinds = /** @type {any} */ (ts.ModuleKind);
  const res = /** @type {any} */ (ts.ModuleResolutionKind);
  if (atLeast(ts, 4, 7) && kinds.NodeNext !== undefined && res.NodeNext !== undefined) {
    return { module: kinds.NodeNext, moduleResolution: res.NodeNext };
  }
  return { module: kinds.CommonJS, moduleResolution: res.NodeJs };
}

/**
 * Whether the compiler has the resolveModuleNameLiterals host hooks (5.0+).
 * @param {typeof import('typescript')} ts
 */
function hasLiteralHooks(ts) {
  return atLeast(ts, 5, 0);
}

/**
 * The resolution mode of the import literal lit in sf (4.7+), undefined for
 * compilers without modes.
 * @param {typeof import('typescript')} ts
 * @param {import('typescript').SourceFile | undefined} sf
 * @param {import('typescript').StringLiteralLike} lit
 * @param {import('typescript').CompilerOptions} options
 */
function modeForUsage(ts, sf, lit, options) {
  const f = /** @type {any} */ (ts).getModeForUsageLocation;
  // 4.7-5.2 take (file, usage); 5.3+ also the options, which decide
  // whether the file's format counts.
  return sf && typeof f === 'function' ? f(sf, lit, options) : undefined;
}

/**
 * The resolution mode of the index-th import of sf, for the 4.x
 * resolveModuleNames hook (4.7+), undefined before.
 * @param {typeof import('typescript')} ts
 * @param {import('typescript').SourceFile | undefined} sf
 * @param {number} index
 * @param {import('typescript').CompilerOptions} options
 */
function modeAtIndex(ts, sf, index, options) {
  const f = /** @type {any} */ (ts).getModeForResolutionAtIndex;
  return sf && typeof f === 'function' ? f(sf, index, options) : undefined;
}

/**
 * The module format a file would have (4.7+), undefined before.
 * @param {typeof import('typescript')} ts
 * @param {string} file
 * @param {import('typescript').CompilerOptions} options
 */
function impliedNodeFormat(ts, file, options) {
  const f = /** @type {any} */ (ts).getImpliedNodeFormatForFile;
  if (typeof f !== 'function') return undefined;
  try {
    return f(file, undefined, ts.sys, options);
  } catch {
    return undefined;
  }
}

/**
 * Whether n is `x satisfies T` (4.9+; nothing is before).
 * @param {typeof import('typescript')} ts
 * @param {import('typescript').Node} n
 */
function isSatisfies(ts, n) {
  const f = /** @type {any} */ (ts).isSatisfiesExpression;
  return typeof f === 'function' && f(n);
}

/** A parse-tree node of no file, per compiler (see typeOfSymbol). @type {WeakMap<object, import('typescript').Node>} */
const anyNode = new WeakMap();

/**
 * checker.getTypeOfSymbol, public from TypeScript 4.9 (internal before):
 * the older checkers answer getTypeOfSymbolAtLocation, which for a
 * location that is not an identifier is the symbol's declared type.
 * Symbols without declarations (a mapped type's properties) get a node of
 * an empty file: only its being a parse-tree node matters.
 * @param {typeof import('typescript')} ts
 * @param {import('typescript').TypeChecker} checker
 * @param {import('typescript').Symbol} sym
 */
function typeOfSymbol(ts, checker, sym) {
  const c = /** @type {any} */ (checker);
  if (typeof c.getTypeOfSymbol === 'function') return c.getTypeOfSymbol(sym);
  /** @type {import('typescript').Node | undefined} */
  let at = sym.valueDeclaration || (sym.declarations && sym.declarations[0]);
  if (!at) {
    at = anyNode.get(ts);
    if (!at) {
      at = ts.createSourceFile('__uptide_compat__.ts', '', ts.ScriptTarget.ESNext);
      anyNode.set(ts, at);
    }
  }
  return checker.getTypeOfSymbolAtLocation(sym, at);
}

// Options whose invalid value the compiler replaces by its default and goes
// on: "Argument for '--moduleResolution' option must be: …" (TS6046). A
// tsconfig asking for bundler resolution from 4.9 then resolves nothing the
// way the repository means, so the compile cannot stand for it.
const REJECTED_VALUE = 6046;

/**
 * The first option value the compiler rejects in a tsconfig's errors, as a
 * reason naming the file, or ''.
 * @param {typeof import('typescript')} ts
 * @param {readonly import('typescript').Diagnostic[]} errors
 * @param {string} file the tsconfig (used when the error has no file)
 */
function rejectedOption(ts, errors, file) {
  const d = errors.find((e) => e.code === REJECTED_VALUE);
  if (!d) return '';
  const where = d.file ? d.file.fileName + (d.start !== undefined ? ':' + (d.file.getLineAndCharacterOfPosition(d.start).line + 1) : '') : file || 'tsconfig';
  return `invalid tsconfig ${where}: TypeScript ${ts.version} rejects an option value in it (TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}); ` +
    'upgrade typescript or change the tsconfig';
}

module.exports = {
  versionOf,
  atLeast,
  jsDocModes,
  tscJSDocMode,
  sourceFileOptions,
  bundlerResolution,
  nodeModuleOptions,
  hasLiteralHooks,
  modeForUsage,
  modeAtIndex,
  impliedNodeFormat,
  isSatisfies,
  typeOfSymbol,
  rejectedOption,
};
