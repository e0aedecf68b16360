// @ts-check
'use strict';

// JSDoc tags read straight from the comment text. Source files are parsed
// without JSDoc (it is most of the parse time of heavily documented
// declarations such as stripe's), and a surface only needs two tags:
// @deprecated with its text and @internal.

/**
 * @param {typeof import('typescript')} ts
 * @param {import('typescript').Node} node
 * @returns {{name: string, text: string}[]}
 */
function tagsOf(ts, node) {
  let host = node;
  if (ts.isVariableDeclaration(node) && node.parent && ts.isVariableDeclarationList(node.parent) && node.parent.parent) {
    host = node.parent.parent;
  }
  if (ts.isSourceFile(host)) return [];
  const sf = host.getSourceFile();
  const ranges = ts.getLeadingCommentRanges(sf.text, host.pos) || [];
  /** @type {{name: string, text: string}[]} */
  const tags = [];
  for (const r of ranges) {
    const raw = sf.text.slice(r.pos, r.end);
    if (!raw.startsWith('/**') || raw.startsWith('/**/')) continue;
    tags.push(...parseComment(raw));
  }
  return tags;
}

/**
 * @param {string} raw a whole /** … *\/ comment
 * @returns {{name: string, text: string}[]}
 */
function parseComment(raw) {
  const body = raw.slice(3, raw.endsWith('*/') ? -2 : undefined);
  const lines = body.split(/\r?\n/).map((l) => l.replace(/^\s*\*?\s?/, ''));
  /** @type {{name: string, text: string}[]} */
  const tags = [];
  /** @type {{name: string, parts: string[]} | null} */
  let current = null;
  for (const line of lines) {
    const m = /^\s*@([A-Za-z][\w-]*)\s?(.*)$/.exec(line);
    if (m) {
      current = { name: m[1], parts: [m[2]] };
      tags.push(/** @type {any} */ (current));
    } else if (current) {
      current.parts.push(line);
    }
  }
  return tags.map((t) => ({ name: t.name, text: (/** @type {any} */ (t).parts).join(' ').replace(/\s+/g, ' ').trim() }));
}

/**
 * @param {typeof import('typescript')} ts
 * @param {import('typescript').Node} node
 * @returns {string | undefined} the @deprecated text ('' when bare)
 */
function deprecatedText(ts, node) {
  const tag = tagsOf(ts, node).find((t) => t.name === 'deprecated');
  return tag ? tag.text : undefined;
}

/**
 * @param {typeof import('typescript')} ts
 * @param {import('typescript').Node} node
 */
function isInternal(ts, node) {
  return tagsOf(ts, node).some((t) => t.name === 'internal');
}

module.exports = { deprecatedText, isInternal, parseComment };
