package match

import (
	"strings"

	"github.com/uptide/uptide/engine/model/path"
)

// notTypeNames are the words of type text that never name a declaration of
// the package.
var notTypeNames = map[string]bool{
	"any": true, "unknown": true, "never": true, "void": true, "undefined": true, "null": true,
	"string": true, "number": true, "boolean": true, "bigint": true, "symbol": true, "object": true,
	"true": true, "false": true, "this": true, "typeof": true, "keyof": true, "readonly": true,
	"unique": true, "infer": true, "extends": true, "is": true, "asserts": true, "new": true,
	"abstract": true, "class": true, "interface": true, "namespace": true, "module": true, "enum": true,
	"function": true, "const": true, "declare": true, "in": true, "out": true, "of": true, "as": true,
	"type": true, "static": true, "protected": true, "private": true, "public": true, "get": true,
	"set": true, "accessor": true, "unresolved": true, "implements": true, "default": true,
}

func isIdentStart(c byte) bool {
	return c == '_' || c == '$' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80
}

func isIdentPart(c byte) bool {
	return isIdentStart(c) || (c >= '0' && c <= '9')
}

// namedTypes reads the qualified names a declaration's printed text refers
// to, in order of appearance, without duplicates. It is deliberately
// shallow: string and template literals are skipped, and a name followed by
// ':' where a member or parameter name stands is a name being declared, not
// a type. What it cannot tell apart it returns; the caller only keeps names
// that resolve to declarations of the package.
func namedTypes(sig string) []string {
	var out []string
	seen := map[string]bool{}
	for i := 0; i < len(sig); {
		c := sig[i]
		switch {
		case c == '"' || c == '\'' || c == '`':
			i = skipQuoted(sig, i)
			continue
		case isIdentStart(c) && (i == 0 || !isIdentPart(sig[i-1])) && (i == 0 || sig[i-1] != '.'):
			start := i
			for i < len(sig) && isIdentPart(sig[i]) {
				i++
			}
			// Follow a qualified name: Stripe.LatestApiVersion.
			for i+1 < len(sig) && sig[i] == '.' && isIdentStart(sig[i+1]) {
				i++
				for i < len(sig) && isIdentPart(sig[i]) {
					i++
				}
			}
			name := sig[start:i]
			if notTypeNames[name] || declaresName(sig, start, i) || seen[name] {
				continue
			}
			seen[name] = true
			out = append(out, name)
			continue
		}
		i++
	}
	return out
}

// skipQuoted returns the offset past the literal opening at s[i], or the end
// of s when it is not closed.
func skipQuoted(s string, i int) int {
	q := s[i]
	for i++; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case q:
			return i + 1
		}
	}
	return len(s)
}

// declaresName reports whether the name at s[start:end] is a member or
// parameter being declared: followed by ':' or '?:' and preceded by the
// start, '{', ';', ',', '(' or a modifier or spread. The other ':' in type
// text is the else branch of a conditional type, preceded by '?'.
func declaresName(s string, start, end int) bool {
	j := end
	for j < len(s) && s[j] == ' ' {
		j++
	}
	if j < len(s) && s[j] == '?' {
		j++
	}
	if j >= len(s) || s[j] != ':' {
		return false
	}
	k := start
	for {
		for k > 0 && s[k-1] == ' ' {
			k--
		}
		if k >= 3 && s[k-3:k] == "..." {
			k -= 3
			continue
		}
		if k >= 8 && s[k-8:k] == "readonly" && (k == 8 || !isIdentPart(s[k-9])) {
			k -= 8
			continue
		}
		break
	}
	return k == 0 || strings.ContainsRune("{;,(", rune(s[k-1]))
}

// resolveName finds the path a qualified name in the declaration of used
// refers to, the way TypeScript's lexical lookup would: the innermost
// enclosing namespace first, then the top level. exists says whether a path
// is declared.
func resolveName(name string, used path.Path, exists func(string) bool) string {
	anc := used.Ancestors()
	for k := len(anc) - 1; k >= 0; k-- {
		if anc[k].Leaf().Sep == path.SepInstance {
			continue // an instance member is no namespace to look names up in
		}
		if p := anc[k].String() + "." + name; exists(p) {
			return p
		}
	}
	if used.Scope != "" {
		if q, err := path.Parse(name); err == nil {
			if p := q.Scoped(used.Scope).String(); exists(p) {
				return p
			}
		}
	}
	if exists(name) {
		return name
	}
	return ""
}
