// @ts-check
'use strict';

// What a file loads, read from its syntax alone and kept per parsed file:
// imports, re-exports, import = require(), require() and import() with
// literal or computed specifiers, the local names each binds and the
// locals the file exports. Signal A decides from this which files load a
// package or a barrel of it before it asks the checker anything.

/**
 * @typedef {{spec: string, kind: 'import' | 'export' | 'importEquals' | 'require' | 'dynamic', node: import('typescript').Node, computed: boolean, prefix: string, text: string, names: string[], reexport: boolean}} Load
 * @typedef {{loads: Load[], importNames: Set<string>, exportedLocals: string[]}} Facts
 */

/** @type {WeakMap<import('typescript').SourceFile, Facts>} */
const cache = new WeakMap();

const CALLS = /\brequire\s*\(|\bimport\s*\(/;

/**
 * @param {typeof import('typescript')} ts
 * @param {import('typescript').SourceFile} sf
 * @returns {Facts}
 */
function fileFacts(ts, sf) {
  const hit = cache.get(sf);
  if (hit) return hit;
  /** @type {Load[]} */
  const loads = [];
  /** @type {Set<string>} */
  const importNames = new Set();
  /** @type {string[]} */
  const exportedLocals = [];

  for (const stmt of sf.statements) {
    if (ts.isImportDeclaration(stmt) && ts.isStringLiteral(stmt.moduleSpecifier)) {
      /** @type {string[]} */
      const names = [];
      const c = stmt.importClause;
      if (c) {
        if (c.name) names.push(c.name.text);
        const b = c.namedBindings;
        if (b && ts.isNamespaceImport(b)) names.push(b.name.text);
        else if (b) for (const e of b.elements) names.push(e.name.text);
      }
      for (const n of names) importNames.add(n);
      loads.push({ spec: stmt.moduleSpecifier.text, kind: 'import', node: stmt, computed: false, prefix: '', text: '', names, reexport: false });
    } else if (ts.isExportDeclaration(stmt)) {
      if (stmt.moduleSpecifier && ts.isStringLiteral(stmt.moduleSpecifier)) {
        loads.push({ spec: stmt.moduleSpecifier.text, kind: 'export', node: stmt, computed: false, prefix: '', text: '', names: [], reexport: true });
      } else if (stmt.exportClause && ts.isNamedExports(stmt.exportClause)) {
        for (const e of stmt.exportClause.elements) exportedLocals.push((e.propertyName || e.name).text);
      }
    } else if (ts.isExportAssignment(stmt) && ts.isIdentifier(stmt.expression)) {
      exportedLocals.push(stmt.expression.text);
    } else if (ts.isImportEqualsDeclaration(stmt) && ts.isExternalModuleReference(stmt.moduleReference) &&
      ts.isStringLiteral(stmt.moduleReference.expression)) {
      importNames.add(stmt.name.text);
      loads.push({ spec: stmt.moduleReference.expression.text, kind: 'importEquals', node: stmt, computed: false, prefix: '', text: '', names: [stmt.name.text], reexport: false });
      if (stmt.modifiers && stmt.modifiers.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) exportedLocals.push(stmt.name.text);
    }
  }

  if (CALLS.test(sf.text)) {
    /** @param {import('typescript').Node} node */
    const visit = (node) => {
      if (ts.isCallExpression(node)) {
        const dynamic = node.expression.kind === ts.SyntaxKind.ImportKeyword;
        const require = ts.isIdentifier(node.expression) && node.expression.text === 'require';
        if ((dynamic || require) && node.arguments.length >= 1) {
          const arg = node.arguments[0];
          const literal = ts.isStringLiteral(arg) || ts.isNoSubstitutionTemplateLiteral(arg);
          const names = literal ? boundNames(ts, node) : [];
          for (const n of names) importNames.add(n);
          loads.push({
            spec: literal ? arg.text : '',
            kind: dynamic ? 'dynamic' : 'require',
            node,
            computed: !literal,
            prefix: literal ? '' : staticPrefix(ts, arg),
            text: literal ? '' : clip(arg.getText(sf)),
            names,
            reexport: literal && assignsExports(ts, node),
          });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  const facts = { loads, importNames, exportedLocals };
  cache.set(sf, facts);
  return facts;
}

/**
 * The text a computed specifier certainly starts with: the head of a
 * template literal (`./locales/${lang}.json` → "./locales/"), the literal
 * left operands of a concatenation ('lodash/' + name → "lodash/"); ""
 * when it starts with something computed.
 * @param {typeof import('typescript')} ts
 * @param {import('typescript').Expression} e
 * @returns {string}
 */
function staticPrefix(ts, e) {
  while (ts.isParenthesizedExpression(e)) e = e.expression;
  if (ts.isTemplateExpression(e)) return e.head.text;
  if (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    let left = e.left;
    while (ts.isParenthesizedExpression(left)) left = left.expression;
    if (ts.isStringLiteral(left) || ts.isNoSubstitutionTemplateLiteral(left)) return left.text + staticPrefix(ts, e.right);
    return staticPrefix(ts, left);
  }
  return '';
}

/** @param {string} s */
function clip(s) {
  s = s.replace(/\s+/g, ' ');
  return s.length > 80 ? s.slice(0, 79) + '…' : s;
}

/**
 * The local names `const x = require('m')` / `const { a, b: c } =
 * await import('m')` binds.
 * @param {typeof import('typescript')} ts
 * @param {import('typescript').CallExpression} call
 */
function boundNames(ts, call) {
  /** @type {import('typescript').Node} */
  let n = call;
  while (n.parent && (ts.isParenthesizedExpression(n.parent) || ts.isAwaitExpression(n.parent))) n = n.parent;
  const p = n.parent;
  if (!p || !ts.isVariableDeclaration(p) || p.initializer !== n) return [];
  /** @type {string[]} */
  const out = [];
  /** @param {import('typescript').BindingName} b */
  const collect = (b) => {
    if (ts.isIdentifier(b)) out.push(b.text);
    else for (const e of b.elements) if (!ts.isOmittedExpression(e)) collect(e.name);
  };
  collect(p.name);
  return out;
}

/**
 * module.exports = require('m'), exports.x = require('m'): a CommonJS
 * barrel.
 * @param {typeof import('typescript')} ts
 * @param {import('typescript').CallExpression} call
 */
function assignsExports(ts, call) {
  const p = call.parent;
  if (!p || !ts.isBinaryExpression(p) || p.right !== call || p.operatorToken.kind !== ts.SyntaxKind.EqualsToken) return false;
  const text = p.left.getText();
  return text === 'module.exports' || text.startsWith('module.exports.') || text.startsWith('exports.');
}

module.exports = { fileFacts };
