package jsonc

import (
	"encoding/json"
	"testing"
)

func TestStrip(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"a": 1}`, `{"a": 1}`},
		{"{\"a\": 1, // c\n}", "{\"a\": 1      \n}"},
		{`{"a": [1, 2, ], /* x */ }`, `{"a": [1, 2  ]          }`},
		{`{"u": "http://x/*y*/", "e": "a\"//b"}`, `{"u": "http://x/*y*/", "e": "a\"//b"}`},
		{"{\"a\": 1 /* open\n", "{\"a\": 1        \n"},
		{"/* a\nb */{}", "    \n    {}"},
	} {
		got := string(Strip([]byte(tc.in)))
		if got != tc.want {
			t.Errorf("%q: got %q, want %q", tc.in, got, tc.want)
		}
	}
}

func FuzzStrip(f *testing.F) {
	for _, s := range []string{`{"a": [1, ], // c
}`, `{"b": "/*", /* x */ "c": "\"//"}`, `"unterminated`, `/*`, "{\"a\": 1,\n/* c */}"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		out := Strip(data)
		if len(out) != len(data) {
			t.Fatalf("length %d became %d: offsets must stay the input's", len(data), len(out))
		}
		for i := range data {
			if data[i] == '\n' && out[i] != '\n' {
				t.Fatalf("newline at %d blanked: lines must stay the input's", i)
			}
		}
		// Valid JSON without comments or trailing commas is left alone.
		if json.Valid(data) && string(out) != string(data) {
			t.Errorf("valid %q changed to %q", data, out)
		}
	})
}
