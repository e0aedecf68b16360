package jsontok

import (
	"encoding/json"
	"strings"
	"testing"
)

// Skipping leaves the decoder at the next member, whatever the skipped
// value was: a scalar, a nested object or array, or one nested deeper
// than encoding/json would unmarshal.
func TestSkip(t *testing.T) {
	deep := strings.Repeat("[", 20000) + strings.Repeat("]", 20000)
	for _, v := range []string{`1`, `"s"`, `null`, `{"a":[1,{"b":{}}],"c":"d"}`, `[[],[{}],3]`, deep} {
		dec := json.NewDecoder(strings.NewReader(`{"skip":` + v + `,"keep":7}`))
		if !OpenObject(dec) {
			t.Fatal("not an object")
		}
		if tok, _ := dec.Token(); tok != "skip" {
			t.Fatalf("key %v", tok)
		}
		if err := SkipValue(dec); err != nil {
			t.Fatalf("skipping %.40s: %v", v, err)
		}
		if tok, _ := dec.Token(); tok != "keep" {
			t.Fatalf("after %.40s: key %v, want keep", v, tok)
		}
		var n int
		if err := dec.Decode(&n); err != nil || n != 7 {
			t.Fatalf("after %.40s: %d %v", v, n, err)
		}
	}
	// The rest of an opened container.
	dec := json.NewDecoder(strings.NewReader(`[[1,2,{"x":[]}],3]`))
	dec.Token()
	dec.Token()
	if err := SkipRest(dec); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := dec.Decode(&n); err != nil || n != 3 {
		t.Fatalf("after the inner list: %d %v", n, err)
	}
	// A cut document is an error, never a hang.
	if err := SkipValue(json.NewDecoder(strings.NewReader(`{"a":[1,`))); err == nil {
		t.Error("a truncated value skipped without an error")
	}
}
