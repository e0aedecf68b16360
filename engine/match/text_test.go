package match

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/uptide/uptide/engine/model/path"
)

func TestNormalizeMessage(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Type 'string' is not assignable to type 'number'.", "Type '_' is not assignable to type '_'."},
		{"Type '\"a\" | \"b\"' is not assignable to type 'Mode'.\n  Type '\"b\"' is not.", "Type '_' is not assignable to type '_'."},
		{"Expected 2 arguments, but got 1.", "Expected 2 arguments, but got 1."},
		{"Module '\"zod\"' has no exported member 'ZodEffects'.", "Module '_' has no exported member '_'."},
		{"It's   unclosed 'here", "It'_'here"},
		{"''", "'_'"},
		{"  padded\tmessage  ", "padded message"},
		{"", ""},
	} {
		if got := NormalizeMessage(tc.in); got != tc.want {
			t.Errorf("NormalizeMessage(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestQuoteMessage(t *testing.T) {
	long := strings.Repeat("é", 170)
	if got := quoteMessage(long); utf8.RuneCountInString(got) != messageLimit+1 || !strings.HasSuffix(got, "…") || !utf8.ValidString(got) {
		t.Errorf("quoteMessage cut %d runes to %q", 170, got)
	}
	exact := strings.Repeat("a", messageLimit)
	if got := quoteMessage(exact); got != exact {
		t.Errorf("a message of exactly %d characters was cut: %q", messageLimit, got)
	}
	if got := quoteMessage("Type 'A'\n  is not 'B'."); got != "Type 'A' is not 'B'." {
		t.Errorf("quoteMessage = %q", got)
	}
}

// FuzzNormalizeMessage: the grouping key never panics, is idempotent, has
// one line, and keeps no quoted text but '_'.
func FuzzNormalizeMessage(f *testing.F) {
	for _, c := range arbiterCases {
		for _, d := range c.diags {
			f.Add(d.Message)
		}
	}
	for _, s := range []string{"", "'", "''", "'a''b'", "x 'a' 'b", "\n'a'", "Type '`${string}'`' x", "\xff'\xfe'"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, msg string) {
		got := NormalizeMessage(msg)
		if again := NormalizeMessage(got); again != got {
			t.Fatalf("not idempotent: %q → %q → %q", msg, got, again)
		}
		if strings.ContainsAny(got, "\r\n") {
			t.Fatalf("key %q spans lines", got)
		}
		if rest := strings.ReplaceAll(got, "'_'", ""); strings.Count(rest, "'") > 1 {
			t.Fatalf("key %q keeps quoted text", got)
		}
		q := quoteMessage(msg)
		if utf8.ValidString(msg) && !utf8.ValidString(q) {
			t.Fatalf("quoteMessage broke UTF-8: %q", q)
		}
	})
}

func TestNamedTypes(t *testing.T) {
	for _, tc := range []struct {
		sig  string
		want []string
	}{
		{"LatestApiVersion", []string{"LatestApiVersion"}},
		{"(options: Stripe.StripeConfig, cb?: (err: Error) => void): Stripe", []string{"Stripe.StripeConfig", "Error", "Stripe"}},
		{"{ readonly apiVersion?: LatestApiVersion; typescript: boolean }", []string{"LatestApiVersion"}},
		{"<T extends ZodTypeAny>(schema: T): ZodOptional<T>", []string{"T", "ZodTypeAny", "ZodOptional"}},
		{"T extends string ? Foo : Bar", []string{"T", "Foo", "Bar"}},
		{`"a" | 'b' | ` + "`x${Y}`" + ` | Mode`, []string{"Mode"}},
		{"(...args: Args): RefObject<HTMLElement | null>", []string{"Args", "RefObject", "HTMLElement"}},
		{"interface extends Duplex", []string{"Duplex"}},
		{"typeof import", []string{"import"}},
	} {
		if got := namedTypes(tc.sig); !slices.Equal(got, tc.want) {
			t.Errorf("namedTypes(%q) = %q, want %q", tc.sig, got, tc.want)
		}
	}
}

func TestResolveNameIsLexical(t *testing.T) {
	declared := map[string]bool{"Stripe.LatestApiVersion": true, "LatestApiVersion": true, "Config": true, `"./server":Options`: true}
	exists := func(p string) bool { return declared[p] }
	for _, tc := range []struct{ name, used, want string }{
		{"LatestApiVersion", "Stripe.StripeConfig#apiVersion", "Stripe.LatestApiVersion"},
		{"LatestApiVersion", "Other#x", "LatestApiVersion"},
		{"Config", "Stripe.StripeConfig#apiVersion", "Config"},
		{"Options", `"./server":createServer`, `"./server":Options`},
		{"Missing", "Stripe.StripeConfig#apiVersion", ""},
	} {
		if got := resolveName(tc.name, path.MustParse(tc.used), exists); got != tc.want {
			t.Errorf("resolveName(%q in %s) = %q, want %q", tc.name, tc.used, got, tc.want)
		}
	}
}
