// @ts-check
'use strict';

// syntaxNeeds: which TypeScript a set of declaration files needs, read from
// the syntax they use. When the repository's compiler cannot read a
// target's declarations, its errors (a run of "',' expected.") say nothing
// about why; the constructs at fault do, each new in a known release. The
// loaded compiler (the pinned one, newer than any repository's that fails)
// parses the files and names every such construct with where it first
// appears; the engine keeps those newer than the repository's compiler.

const { readText } = require('./regular');

/**
 * @typedef {{feature: string, since: string, type: boolean, file: string, line: number, column: number, count: number}} Need
 */

/**
 * @param {typeof import('typescript')} ts
 * @param {{files: string[]}} params
 */
function syntaxNeeds(ts, params) {
  const files = Array.isArray(params.files) ? params.files : [];
  /** @type {Map<string, Need>} */
  const found = new Map();
  let parseErrors = 0;
  for (const file of files) {
    let text;
    try {
      text = readText(file);
    } catch {
      continue;
    }
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    parseErrors += (/** @type {any} */ (sf).parseDiagnostics || []).length;
    /** @param {string} feature @param {string} since @param {import('typescript').Node} node @param {boolean} [type] */
    const note = (feature, since, node, type = false) => {
      const prev = found.get(feature);
      if (prev) {
        prev.count++;
        return;
      }
      const pos = sf.getLineAndCharacterOfPosition(node.getStart(sf));
      found.set(feature, { feature, since, type, file, line: pos.line + 1, column: pos.character + 1, count: 1 });
    };
    /** @param {import('typescript').Node} node */
    const visit = (node) => {
      check(ts, node, note);
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  const needs = [...found.values()].sort((a, b) => compareVersions(b.since, a.since) || a.feature.localeCompare(b.feature));
  return { needs, parseErrors, typescript: ts.version };
}

/** TypeScript's own types a declaration file names, and the release that added each. */
const LIB_TYPES = new Map([
  ['NoInfer', '5.4'],
  ['Awaited', '4.5'],
  ['Uppercase', '4.1'],
  ['Lowercase', '4.1'],
  ['Capitalize', '4.1'],
  ['Uncapitalize', '4.1'],
]);

/**
 * @param {typeof import('typescript')} ts
 * @param {import('typescript').Node} node
 * @param {(feature: string, since: string, node: import('typescript').Node, type?: boolean) => void} note
 */
function check(ts, node, note) {
  const K = ts.SyntaxKind;
  const mods = /** @type {any} */ (node).modifiers;
  const hasMod = (/** @type {number} */ kind) => !!mods && mods.some((/** @type {any} */ m) => m.kind === kind);
  switch (node.kind) {
    case K.TypeParameter:
      if (hasMod(K.ConstKeyword)) note('`const` type parameters', '5.0', node);
      if (hasMod(K.InKeyword) || hasMod(K.OutKeyword)) note('`in`/`out` variance annotations', '4.7', node);
      break;
    case K.InferType: {
      const tp = /** @type {import('typescript').InferTypeNode} */ (node).typeParameter;
      if (tp && tp.constraint) note('`infer … extends` constraints', '4.7', node);
      break;
    }
    case K.ImportSpecifier:
    case K.ExportSpecifier: {
      const s = /** @type {import('typescript').ImportSpecifier | import('typescript').ExportSpecifier} */ (node);
      if (s.isTypeOnly) note('`type` modifiers on import and export names', '4.5', node);
      break;
    }
    case K.ExportDeclaration: {
      const e = /** @type {import('typescript').ExportDeclaration} */ (node);
      if (e.isTypeOnly && (!e.exportClause || e.exportClause.kind === K.NamespaceExport)) note('`export type *`', '5.0', node);
      break;
    }
    case K.ImportDeclaration:
    case K.ImportType: {
      const attrs = /** @type {any} */ (node).attributes || /** @type {any} */ (node).assertClause || /** @type {any} */ (node).assertions;
      if (attrs) {
        const token = attrs.token;
        if (node.kind === K.ImportType) note('`resolution-mode` import types', '5.3', node);
        else if (token === K.WithKeyword) note('import attributes (`with`)', '5.3', node);
        else note('import assertions (`assert`)', '4.5', node);
      }
      break;
    }
    case K.ClassStaticBlockDeclaration:
      note('`static` blocks', '4.4', node);
      break;
    case K.TemplateLiteralType:
      note('template literal types', '4.1', node);
      break;
    case K.NamedTupleMember:
      note('labeled tuple elements', '4.0', node);
      break;
    case K.ConstructorType:
      if (hasMod(K.AbstractKeyword)) note('`abstract new` constructor types', '4.2', node);
      break;
    case K.IndexSignature: {
      // A checker rule (TS1337, TS1268), so it is missed only where
      // declarations are type-checked: @types/express-serve-static-core 5's
      // `[key: string | number]: string` under TypeScript 4.1.
      const p = /** @type {import('typescript').IndexSignatureDeclaration} */ (node).parameters[0];
      if (p && p.type && indexKeyNeeds44(ts, p.type)) note('index signatures keyed by a union, `symbol` or a template literal', '4.4', node, true);
      break;
    }
    case K.TupleType: {
      // `[...string[], number]`: a checker rule before 4.2 (TS1256).
      const els = /** @type {import('typescript').TupleTypeNode} */ (node).elements;
      for (let i = 0; i < els.length - 1; i++) {
        const el = els[i];
        const rest = el.kind === K.RestType ? /** @type {import('typescript').RestTypeNode} */ (el).type
          : el.kind === K.NamedTupleMember && /** @type {import('typescript').NamedTupleMember} */ (el).dotDotDotToken ? /** @type {import('typescript').NamedTupleMember} */ (el).type
          : undefined;
        if (rest && rest.kind === K.ArrayType) {
          note('rest elements before the end of a tuple', '4.2', el, true);
          break;
        }
      }
      break;
    }
    case K.GetAccessor:
    case K.SetAccessor:
      if (node.parent && (node.parent.kind === K.InterfaceDeclaration || node.parent.kind === K.TypeLiteral)) note('`get`/`set` accessors in interfaces and object types', '4.3', node);
      break;
    case K.TypeReference: {
      const name = /** @type {import('typescript').TypeReferenceNode} */ (node).typeName;
      // An older compiler parses it, and finds no such name only when it
      // type-checks the file (skipLibCheck off).
      if (ts.isIdentifier(name) && LIB_TYPES.has(name.text) && !declaredIn(ts, node, name.text)) {
        note('the `' + name.text + '` type', /** @type {string} */ (LIB_TYPES.get(name.text)), node, true);
      }
      break;
    }
  }
  if (K.AccessorKeyword !== undefined && hasMod(K.AccessorKeyword)) note('`accessor` fields', '4.9', node);
  if (hasMod(K.OverrideKeyword)) note('`override` modifiers', '4.3', node);
}

/**
 * Whether an index signature's key is one TypeScript 4.4 first accepts:
 * `symbol`, a template literal, or a union of those and string/number (a
 * literal or generic key is an error in every release).
 * @param {typeof import('typescript')} ts
 * @param {import('typescript').TypeNode} t
 * @returns {boolean}
 */
function indexKeyNeeds44(ts, t) {
  const K = ts.SyntaxKind;
  const plain = (/** @type {import('typescript').TypeNode} */ x) => x.kind === K.StringKeyword || x.kind === K.NumberKeyword || x.kind === K.SymbolKeyword || x.kind === K.TemplateLiteralType;
  if (t.kind === K.ParenthesizedType) return indexKeyNeeds44(ts, /** @type {import('typescript').ParenthesizedTypeNode} */ (t).type);
  if (t.kind === K.SymbolKeyword || t.kind === K.TemplateLiteralType) return true;
  return t.kind === K.UnionType && /** @type {import('typescript').UnionTypeNode} */ (t).types.every(plain);
}

/**
 * Whether the file declares a type of that name itself (a library's own
 * NoInfer), which any compiler then reads.
 * @param {typeof import('typescript')} ts
 * @param {import('typescript').Node} node
 * @param {string} name
 */
function declaredIn(ts, node, name) {
  const sf = node.getSourceFile();
  /** @type {Map<string, boolean>} */
  const cache = /** @type {any} */ (sf).__uptideLocalTypes || new Map();
  /** @type {any} */ (sf).__uptideLocalTypes = cache;
  if (cache.has(name)) return /** @type {boolean} */ (cache.get(name));
  let found = false;
  /** @param {import('typescript').Node} n */
  const visit = (n) => {
    if (found) return;
    if ((ts.isTypeAliasDeclaration(n) || ts.isInterfaceDeclaration(n) || ts.isClassDeclaration(n) || ts.isTypeParameterDeclaration(n)) && n.name && n.name.text === name) {
      found = true;
      return;
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  cache.set(name, found);
  return found;
}

/** @param {string} a @param {string} b */
function compareVersions(a, b) {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] || 0) - (pb[i] || 0);
    if (d) return d;
  }
  return 0;
}

module.exports = { syntaxNeeds };
