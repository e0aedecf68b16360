// @ts-check
'use strict';

// Text of the surface: path segments (quoted when they are not identifiers)
// and normalized signatures. A signature is the printer's output with union
// members sorted, import("./file").T reduced to T and string literals in one
// quote style, so moving a file or reordering a union is not a change.

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
// Printed in a signature where an anonymous object type was expanded into
// member symbols.
const EXPANDED = '{…}';
const SIMPLE = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*(?:\[\])*$/;

/** @param {string} name */
function segment(name) {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

/** @param {string} specifier */
function scope(specifier) {
  return JSON.stringify(specifier) + ':';
}

class Printer {
  /**
   * @param {typeof import('typescript')} ts
   */
  constructor(ts) {
    this.ts = ts;
    this.printer = ts.createPrinter({ removeComments: true, omitTrailingSemicolon: true });
  }

  /**
   * @param {import('typescript').Node} node
   * @param {import('typescript').Node} [expanded] a type literal inside node to print as {…}
   */
  print(node, expanded) {
    const ts = this.ts;
    const sf = node.getSourceFile();
    if (!expanded && node.pos >= 0) {
      // A plain or qualified name (possibly an array of one) prints as
      // written; skipping the printer for them halves extraction time.
      const raw = sf.text.slice(node.getStart(sf), node.end);
      if (SIMPLE.test(raw)) return raw;
    }
    let text = this.printer.printNode(ts.EmitHint.Unspecified, node, sf);
    if (expanded || /[|'"]|import\(|Array</.test(text)) {
      const normalized = this.normalize(node, expanded);
      text = this.printer.printNode(ts.EmitHint.Unspecified, normalized, sf);
    }
    return oneLine(text);
  }

  /**
   * @param {import('typescript').Node} root
   * @param {import('typescript').Node} [expanded]
   * @returns {import('typescript').Node}
   */
  normalize(root, expanded) {
    const ts = this.ts;
    const f = ts.factory;
    const sf = root.getSourceFile();
    /** @type {(n: import('typescript').Node) => import('typescript').Node} */
    const visit = (n) => {
      if (expanded && n === expanded) return f.createTypeReferenceNode(f.createIdentifier(EXPANDED));
      if (ts.isImportTypeNode(n) && n.qualifier && !n.isTypeOf) {
        return f.createTypeReferenceNode(
          /** @type {import('typescript').EntityName} */ (visit(n.qualifier)),
          n.typeArguments && /** @type {import('typescript').TypeNode[]} */ (n.typeArguments.map(visit)),
        );
      }
      // Array<T> and T[] are one type; the shorter form is the canonical one.
      if (ts.isTypeReferenceNode(n) && ts.isIdentifier(n.typeName) && n.typeArguments && n.typeArguments.length === 1 &&
        (n.typeName.text === 'Array' || n.typeName.text === 'ReadonlyArray')) {
        const element = /** @type {import('typescript').TypeNode} */ (visit(n.typeArguments[0]));
        const array = f.createArrayTypeNode(element);
        return n.typeName.text === 'Array' ? array : f.createTypeOperatorNode(ts.SyntaxKind.ReadonlyKeyword, array);
      }
      if (ts.isUnionTypeNode(n)) {
        const seen = new Set();
        const members = [];
        for (const t of n.types) {
          const v = /** @type {import('typescript').TypeNode} */ (visit(t));
          const key = oneLine(this.printer.printNode(ts.EmitHint.Unspecified, v, sf));
          if (seen.has(key)) continue;
          seen.add(key);
          members.push({ key, v });
        }
        members.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
        return f.createUnionTypeNode(members.map((m) => m.v));
      }
      if (ts.isLiteralTypeNode(n) && ts.isStringLiteral(n.literal)) {
        return f.createLiteralTypeNode(f.createStringLiteral(n.literal.text));
      }
      if (ts.isStringLiteral(n) && n.parent && ts.isLiteralTypeNode(n.parent)) return f.createStringLiteral(n.text);
      // nullTransformationContext is exported at runtime by every compiler
      // version the driver loads, though not declared in typescript.d.ts.
      return ts.visitEachChild(n, visit, /** @type {any} */ (ts).nullTransformationContext);
    };
    return visit(root);
  }
}

/** @param {string} text */
function oneLine(text) {
  return text.replace(/\r?\n\s*/g, ' ').replace(/\s+$/, '');
}

const STOP_WORDS = new Set(['the', 'a', 'an', 'this', 'that', 'these', 'those', 'it', 'its', 'instead', 'of', 'with',
  'your', 'our', 'new', 'native', 'other', 'another', 'something', 'anything', 'each', 'any', 'some', 'as', 'in', 'on',
  'for', 'to', 'and', 'or', 'not', 'no', 'only', 'one', 'both', 'either', 'via', 'at', 'by', 'from', 'if', 'when',
  'built', 'builtin', 'standard', 'custom', 'them', 'they', 'is', 'be', 'will', 'please', 'use', 'method', 'function',
  'property', 'option', 'options', 'type', 'types', 'class', 'constructor']);

const NAME = /^([A-Za-z_$][\w$]*(?:[.#][A-Za-z_$][\w$]*)*)(\(\))?/;

/**
 * The replacement a @deprecated text names, when it names a bare identifier
 * or member ("use parse instead" → "parse", "{@link Client.connect}").
 * @param {string} message
 * @returns {string}
 */
function replacementOf(message) {
  const link = /\{@link(?:code|plain)?\s+([^\s}|]+)/.exec(message);
  if (link) {
    const m = NAME.exec(link[1]);
    if (m && m[0].length === link[1].replace(/\(\)$/, '').length + (m[2] ? 2 : 0)) return m[1];
  }
  const lead = /\b(?:use|replaced by|in favou?r of|superseded by|renamed to|prefer|see)\s+`?/gi;
  let found;
  while ((found = lead.exec(message)) !== null) {
    const rest = message.slice(found.index + found[0].length);
    if (found[0].endsWith('`')) {
      // A code span is the replacement whole or not at all: "`typeof
      // React.Children`" names React.Children, "`z.string().email()`" is an
      // expression, not a name.
      const close = rest.indexOf('`');
      if (close < 0) continue;
      const span = rest.slice(0, close).trim().replace(/^typeof\s+/, '');
      const m = NAME.exec(span);
      if (!m || m[0].length !== span.length) continue;
      if (!m[1].includes('.') && !m[1].includes('#') && STOP_WORDS.has(m[1].toLowerCase())) continue;
      return m[1];
    }
    const m = NAME.exec(rest);
    if (!m) continue;
    const after = rest.slice(m[0].length);
    // "z.string().email()" is an expression, not a bare name.
    if (/^[\w$(\[]/.test(after) || /^\.[\w$]/.test(after)) continue;
    if (!m[1].includes('.') && !m[1].includes('#') && STOP_WORDS.has(m[1].toLowerCase())) continue;
    return m[1];
  }
  return '';
}

module.exports = { segment, scope, Printer, replacementOf, oneLine, EXPANDED };
