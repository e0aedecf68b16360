// Package jsontok owns the token-level steps the streaming JSON readers
// share (the npm lockfile and the registry's packuments): opening an
// object, and passing over a value or the rest of a container without
// keeping it, a token at a time, so a large value is never buffered whole
// and a deep one never recursed into.
package jsontok

import "encoding/json"

// OpenObject reads the next token and says whether it opened an object.
func OpenObject(dec *json.Decoder) bool {
	tok, err := dec.Token()
	d, ok := tok.(json.Delim)
	return err == nil && ok && d == '{'
}

// SkipValue consumes the next value.
func SkipValue(dec *json.Decoder) error { return skip(dec, 0) }

// SkipRest consumes the rest of the object or array whose opening
// delimiter was just read.
func SkipRest(dec *json.Decoder) error { return skip(dec, 1) }

// skip reads tokens until depth containers are closed, and at least one
// value is read.
func skip(dec *json.Decoder, depth int) error {
	for {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		if d, ok := tok.(json.Delim); ok {
			if d == '{' || d == '[' {
				depth++
			} else {
				depth--
			}
		}
		if depth == 0 {
			return nil
		}
	}
}
