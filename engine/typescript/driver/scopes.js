// @ts-check
'use strict';

// Enclosing declarations: for a line of a source file, the lines of the
// smallest declaration a fix of that line lives in, the only source the
// assisted fixer may send. The file is parsed alone (no program): a scope
// is syntax, not types.

const MAX_LINES = 150;

/**
 * @param {typeof import('typescript')} ts
 * @param {{file: string, text: string, lines: number[]}} params
 * @returns {{ranges: {line: number, start: number, end: number}[]}}
 */
function enclosing(ts, params) {
  const kind = /\.(c|m)?tsx$|\.jsx$/.test(params.file) ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(params.file, params.text, ts.ScriptTarget.Latest, true, kind);
  const starts = sf.getLineStarts();
  const ranges = [];
  for (const line of params.lines || []) {
    if (!(line >= 1 && line <= starts.length)) {
      ranges.push({ line, start: 0, end: 0 });
      continue;
    }
    // The line's text without its indentation and trailing blanks: a
    // node holds the line when it spans that text.
    let from = starts[line - 1];
    let to = line < starts.length ? starts[line] - 1 : sf.text.length;
    while (from < to && /\s/.test(sf.text[from])) from++;
    while (to > from && /\s/.test(sf.text[to - 1])) to--;
    ranges.push({ line, ...scopeOf(ts, sf, from, to) });
  }
  return { ranges };
}

/**
 * The innermost function-like declaration (or the variable statement a
 * function initialises) holding [from, to] within MAX_LINES lines, else the
 * innermost statement or member holding it, else the top-level statement.
 *
 * @param {typeof import('typescript')} ts
 * @param {import('typescript').SourceFile} sf
 * @param {number} from
 * @param {number} to
 */
function scopeOf(ts, sf, from, to) {
  /** @type {import('typescript').Node[]} */
  const chain = [];
  /** @param {import('typescript').Node} node */
  const visit = (node) => {
    node.forEachChild((child) => {
      if (child.getStart(sf) <= from && child.end >= to) {
        chain.push(child);
        visit(child);
        return true;
      }
      return undefined;
    });
  };
  visit(sf);
  /** @param {import('typescript').Node} n */
  const lines = (n) => {
    const s = sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1;
    const e = sf.getLineAndCharacterOfPosition(n.end).line + 1;
    return { start: s, end: e };
  };
  /** @param {import('typescript').Node} n */
  const fits = (n) => {
    const r = lines(n);
    return r.end - r.start + 1 <= MAX_LINES;
  };
  for (let i = chain.length - 1; i >= 0; i--) {
    const n = chain[i];
    if (isFunctionLike(ts, n) && fits(n)) {
      return lines(hostOf(ts, n));
    }
  }
  for (let i = chain.length - 1; i >= 0; i--) {
    const n = chain[i];
    if ((isStatement(ts, n) || ts.isClassElement(n) || ts.isTypeElement(n)) && fits(n)) {
      // A member is its own declaration; a statement climbs to the
      // outermost statement that still fits (the whole "if", not its
      // branch).
      if (!isStatement(ts, n)) return lines(n);
      let best = n;
      for (let j = i - 1; j >= 0; j--) {
        const p = chain[j];
        if (!(isStatement(ts, p) || ts.isClassElement(p))) continue;
        if (!fits(p)) break;
        best = p;
        if (isFunctionLike(ts, p)) break;
      }
      return lines(hostOf(ts, best));
    }
  }
  const startLine = sf.getLineAndCharacterOfPosition(from).line + 1;
  return { start: startLine, end: startLine };
}

/**
 * @param {typeof import('typescript')} ts
 * @param {import('typescript').Node} n
 */
function isFunctionLike(ts, n) {
  return ts.isFunctionDeclaration(n) || ts.isMethodDeclaration(n) || ts.isConstructorDeclaration(n) ||
    ts.isGetAccessorDeclaration(n) || ts.isSetAccessorDeclaration(n) ||
    ((ts.isArrowFunction(n) || ts.isFunctionExpression(n)) && !!n.parent && ts.isVariableDeclaration(n.parent));
}

/**
 * @param {typeof import('typescript')} ts
 * @param {import('typescript').Node} n
 */
function isStatement(ts, n) {
  return !!n.parent && (ts.isSourceFile(n.parent) || ts.isBlock(n.parent) || ts.isModuleBlock(n.parent) ||
    ts.isCaseClause(n.parent) || ts.isDefaultClause(n.parent)) && !ts.isBlock(n);
}

/**
 * A function expression initialising a variable is shown with its
 * variable statement (the name and export are part of the declaration).
 *
 * @param {typeof import('typescript')} ts
 * @param {import('typescript').Node} n
 */
function hostOf(ts, n) {
  if ((ts.isArrowFunction(n) || ts.isFunctionExpression(n)) && n.parent && ts.isVariableDeclaration(n.parent)) {
    const list = n.parent.parent;
    if (list && ts.isVariableDeclarationList(list) && list.parent && ts.isVariableStatement(list.parent)) return list.parent;
  }
  return n;
}

/**
 * The syntax nodes holding each offset of a file, innermost first, with
 * their kinds and exact ranges (from the node's first token, trivia
 * excluded, to its end): what a migration transform needs to make an
 * exact edit where tokens alone cannot say where a node ends. The file is
 * parsed alone; the source file itself is not listed. An offset outside
 * the text has no nodes.
 *
 * @param {typeof import('typescript')} ts
 * @param {{file: string, text: string, offsets: number[]}} params
 * @returns {{chains: {kind: string, start: number, end: number}[][]}}
 */
function ancestors(ts, params) {
  const kind = /\.(c|m)?tsx$|\.jsx$/.test(params.file) ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(params.file, params.text, ts.ScriptTarget.Latest, true, kind);
  const chains = [];
  for (const at of params.offsets || []) {
    /** @type {{kind: string, start: number, end: number}[]} */
    const chain = [];
    if (at >= 0 && at < sf.text.length) {
      /** @param {import('typescript').Node} node */
      const visit = (node) => {
        node.forEachChild((child) => {
          if (child.getStart(sf) <= at && at < child.end) {
            chain.push({ kind: ts.SyntaxKind[child.kind], start: child.getStart(sf), end: child.end });
            visit(child);
            return true;
          }
          return undefined;
        });
      };
      visit(sf);
    }
    chains.push(chain.reverse());
  }
  return { chains };
}

module.exports = { enclosing, ancestors };
