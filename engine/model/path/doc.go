// Package path is the only code that builds or splits canonical symbol
// paths. A path names a declaration the way a consumer reaches it, never by
// file or declaration order, so that the same symbol in two versions of a
// package has the same path when nothing about it changed:
//
//	path    ::= scope? segment ( '.' segment | '#' segment | '[]' )*
//	scope   ::= '"' module-specifier '"' ':'
//	segment ::= identifier | '"' escaped-name '"' | '()' | 'new()' | '[' key-type ']'
//
// '.' joins static containment (namespace members, statics, enum members),
// '#' instance containment (instance and object-type members), '[]' the
// element type of an array property. Names that are not identifiers are
// JSON-quoted so '.', '#', '[' and '"' inside a name never split a path.
//
// Printing is canonical: a name is quoted exactly when it is not an
// identifier, whatever the input used, so Parse(s).String() is the one
// spelling of s that surfaces and diffs compare.
package path
