package diff

import (
	"strings"
	"testing"

	"github.com/uptide/uptide/engine/model"
)

func TestRenameHints(t *testing.T) {
	members := func(root string, n int, extra ...model.Symbol) []model.Symbol {
		out := []model.Symbol{sym(root, iface, "interface")}
		for i := 0; i < n; i++ {
			out = append(out, sym(root+"#field"+string(rune('a'+i)), prop, "string"))
		}
		return append(out, extra...)
	}
	tests := []struct {
		name        string
		a, b        []model.Symbol
		removed     string
		replacement string // "" means no hint
		hintConf    string // "hint confidence 0.8"
	}{
		{name: "leaf with identical signature",
			a:       []model.Symbol{sym("parseSync", fn, "(input: string, options?: ParseOptions): Document")},
			b:       []model.Symbol{sym("parseDocument", fn, "(input: string, options?: ParseOptions): Document")},
			removed: "parseSync", replacement: "parseDocument", hintConf: "hint confidence 0.8"},
		{name: "leaf with a similar signature",
			a:       []model.Symbol{sym("Client#listCustomers", meth, "(params?: CustomerListParams, options?: RequestOptions): ApiListPromise<Customer>")},
			b:       []model.Symbol{sym("Client#customersList", meth, "(params?: CustomerListParams, options?: RequestOptions): ApiListPromise<Customers>")},
			removed: "Client#listCustomers", replacement: "Client#customersList", hintConf: "hint confidence 0.6"},
		{name: "leaf signature not similar enough",
			a:       []model.Symbol{sym("parse", fn, "(input: string): Document")},
			b:       []model.Symbol{sym("load", fn, "(path: URL, encoding: BufferEncoding): Promise<Tree>")},
			removed: "parse"},
		{name: "leaf with different parent",
			a:       []model.Symbol{sym("A#run", meth, "(): void"), sym("B", class, "class")},
			b:       []model.Symbol{sym("B#start", meth, "(): void"), sym("A", class, "class")},
			removed: "A#run"},
		{name: "leaf with different kind",
			a:       []model.Symbol{sym("Opts#run", prop, "() => void")},
			b:       []model.Symbol{sym("Opts#start", meth, "() => void")},
			removed: "Opts#run"},
		{name: "tie between two added leaves",
			a:       []model.Symbol{sym("Cache#clear", meth, "(): void")},
			b:       []model.Symbol{sym("Cache#reset", meth, "(): void"), sym("Cache#flush", meth, "(): void")},
			removed: "Cache#clear"},
		{name: "tie between two removed leaves claiming one added",
			a:       []model.Symbol{sym("Cache#clear", meth, "(): void"), sym("Cache#purge", meth, "(): void")},
			b:       []model.Symbol{sym("Cache#reset", meth, "(): void")},
			removed: "Cache#clear"},
		{name: "better evidence wins a contested added leaf",
			a: []model.Symbol{
				sym("Api#getUser", meth, "(id: string, opts?: RequestOptions): Promise<User>"),
				sym("Api#getUsers", meth, "(ids: string[], opts?: RequestOptions): Promise<User[]>"),
			},
			b:       []model.Symbol{sym("Api#fetchUser", meth, "(id: string, opts?: RequestOptions): Promise<User>")},
			removed: "Api#getUsers"},
		{name: "enum member with the same value",
			a:       []model.Symbol{sym("Color", enum, "enum"), sym("Color.Gray", emem, `"gray"`)},
			b:       []model.Symbol{sym("Color", enum, "enum"), sym("Color.Grey", emem, `"gray"`)},
			removed: "Color.Gray", replacement: "Color.Grey", hintConf: "hint confidence 0.8"},
		{name: "container with a similar name and the same members: strong",
			a:       members("SubscriptionCreateParams", 5),
			b:       members("SubscriptionCreateParamsV2", 5),
			removed: "SubscriptionCreateParams", replacement: "SubscriptionCreateParamsV2", hintConf: "hint confidence 0.8"},
		{name: "container sharing only some members: weak",
			a:       members("ChargeParams", 4, sym("ChargeParams#source", prop, "string")),
			b:       members("ChargeParamsV2", 4, sym("ChargeParamsV2#source", prop, "Source")),
			removed: "ChargeParams", replacement: "ChargeParamsV2", hintConf: "hint confidence 0.6"},
		{name: "container with a loosely similar name: weak",
			a:       members("ChargeParams", 5),
			b:       members("ChargeArgs", 5),
			removed: "ChargeParams", replacement: "ChargeArgs", hintConf: "name 50% similar, 100% of members shared; hint confidence 0.6"},
		{name: "container with few shared members",
			a:       members("ChargeParams", 2, sym("ChargeParams#x", prop, "number"), sym("ChargeParams#y", prop, "number")),
			b:       members("ChargeParamz", 1, sym("ChargeParamz#z", prop, "number"), sym("ChargeParamz#w", prop, "number")),
			removed: "ChargeParams"},
		{name: "container with dissimilar name",
			a:       members("Alpha", 3),
			b:       members("Omega", 3),
			removed: "Alpha"},
		{name: "empty container with a very similar name",
			a:       []model.Symbol{sym("EventBase", iface, "interface")},
			b:       []model.Symbol{sym("EventBaseV2", iface, "interface")},
			removed: "EventBase", replacement: "EventBaseV2", hintConf: "hint confidence 0.6"},
		{name: "empty container with a merely similar name",
			a:       []model.Symbol{sym("Options", iface, "interface")},
			b:       []model.Symbol{sym("OptionsLike", iface, "interface")},
			removed: "Options"},
		{name: "a hinted container passes its hint to members",
			a:       members("SubscriptionCreateParams", 10, sym("SubscriptionCreateParams#legacy", prop, "boolean")),
			b:       members("SubscriptionCreateParamsV2", 10, sym("SubscriptionCreateParamsV2#legacy", prop, "boolean | undefined")),
			removed: "SubscriptionCreateParams#legacy", replacement: "SubscriptionCreateParamsV2#legacy", hintConf: "hint confidence 0.8"},
		{name: "deprecation replacement is kept over a hint",
			a:       []model.Symbol{deprecated(sym("parseSync", fn, "(input: string): Document"), "use parse", "parse")},
			b:       []model.Symbol{sym("parseDoc", fn, "(input: string): Document")},
			removed: "parseSync", replacement: "parse", hintConf: "possibly renamed to parseDoc"},
		{name: "resource class renamed plural to singular onto a base, signatures respelled (stripe 14 → 23)",
			a:       stripeResource("Stripe.InvoicesResource", "types/InvoicesResource.d.ts", true, false),
			b:       stripeResource("Stripe.InvoiceResource", "cjs/resources/Invoices.d.ts", false, true),
			removed: "Stripe.InvoicesResource", replacement: "Stripe.InvoiceResource", hintConf: "hint confidence 0.6"},
		{name: "own members respelled but too few kept",
			a: stripeResource("Stripe.InvoicesResource", "types/InvoicesResource.d.ts", true, false),
			b: []model.Symbol{
				inFile(sym("Stripe.InvoiceResource", class, "class extends StripeResource"), "cjs/resources/Invoices.d.ts"),
				inFile(sym("Stripe.InvoiceResource#create", meth, "(params?: InvoiceCreateParams, options?: RequestOptions): Promise<Response<Invoice>>"), "cjs/resources/Invoices.d.ts"),
				inFile(sym("Stripe.InvoiceResource#preview", meth, "(): void"), "cjs/resources/Invoices.d.ts"),
				inFile(sym("Stripe.InvoiceResource#attach", meth, "(): void"), "cjs/resources/Invoices.d.ts"),
				inFile(sym("Stripe.InvoiceResource#detach", meth, "(): void"), "cjs/resources/Invoices.d.ts"),
			},
			removed: "Stripe.InvoicesResource"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Diff(surface("1", tt.a...), surface("2", tt.b...), nil)
			for _, c := range got {
				if c.Kind == "renamed" {
					t.Fatalf("a rename was reported as its own kind: %+v", c)
				}
				if c.Kind == model.ChangeAdded && (c.Replacement != "" || strings.Contains(c.Note, "renamed")) {
					t.Fatalf("the added side of a rename is left alone: %+v", c)
				}
			}
			var removed *model.Change
			for i := range got {
				if got[i].Path == tt.removed && got[i].Kind == model.ChangeRemoved {
					removed = &got[i]
				}
			}
			if removed == nil {
				t.Fatalf("no removed change at %s: %+v", tt.removed, got)
			}
			if removed.Replacement != tt.replacement {
				t.Fatalf("replacement = %q, want %q (note %q)", removed.Replacement, tt.replacement, removed.Note)
			}
			if removed.Severity != model.Breaking || removed.Confidence != 1 {
				t.Fatalf("a hint must not soften the removal: %+v", removed)
			}
			if tt.hintConf != "" && !strings.Contains(removed.Note, tt.hintConf) {
				t.Fatalf("note %q does not contain %q", removed.Note, tt.hintConf)
			}
			if tt.replacement == "" && removed.Note != "" {
				t.Fatalf("no hint expected, note %q", removed.Note)
			}
		})
	}
}

// dice is the reference Dice coefficient the bigram index must agree with.
func dice(a, b bigrams) float64 {
	if a.text == b.text {
		return 1
	}
	if len(a.pairs) == 0 || len(b.pairs) == 0 {
		return 0
	}
	shared := 0
	for i, j := 0, 0; i < len(a.pairs) && j < len(b.pairs); {
		switch {
		case a.pairs[i] == b.pairs[j]:
			shared++
			i++
			j++
		case a.pairs[i] < b.pairs[j]:
			i++
		default:
			j++
		}
	}
	return 2 * float64(shared) / float64(len(a.pairs)+len(b.pairs))
}

func TestDice(t *testing.T) {
	tests := []struct {
		a, b string
		want float64
	}{
		{"night", "nacht", 0.25},
		{"same", "same", 1},
		{"a", "b", 0},
		{"", "", 1},
		{"ab", "a b", 1},
		{"aaaa", "aa", 0.5},
		{"SubscriptionCreateParams", "SubscriptionUpdateParams", 38.0 / 46},
	}
	for _, tt := range tests {
		if got := dice(newBigrams(tt.a), newBigrams(tt.b)); got != tt.want {
			t.Errorf("dice(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
	if j := jaccard([]string{"a", "b", "c"}, []string{"b", "c", "d"}); j != 0.5 {
		t.Errorf("jaccard = %v", j)
	}
}

func TestBigramIndexAgreesWithDice(t *testing.T) {
	words := []string{"ChargeParams", "ChargeArgs", "aaaa", "aa", "PaymentIntent", "Intent", "x", "",
		"(id: string): Promise<Item>", "(id: string, opts?: O): Promise<Item>", "ééé", "éé"}
	entries := make([]bigrams, len(words))
	for i, w := range words {
		entries[i] = newBigrams(w)
	}
	ix := newBigramIndex(entries)
	for _, q := range words {
		qb := newBigrams(q)
		seen := map[int]float64{}
		ix.each(qb, func(e int, d float64) { seen[e] = d })
		for e, w := range words {
			want := dice(qb, entries[e])
			got, ok := seen[e]
			if !ok && want > 0 && w != q {
				t.Errorf("index missed %q for %q (dice %v)", w, q, want)
			}
			if ok && got != want {
				t.Errorf("index dice(%q, %q) = %v, want %v", q, w, got, want)
			}
		}
	}
}

func inFile(s model.Symbol, file string) model.Symbol { s.File = file; return s }

// stripeResource is a resource class as stripe 14 (qualified signatures
// with an options-only overload) or 23 (unqualified, one overload, members
// inherited from StripeResource) declares it.
func stripeResource(p, file string, v14, inherits bool) []model.Symbol {
	q := ""
	if v14 {
		q = "Stripe."
	}
	method := func(name, params, ret string) model.Symbol {
		sig := "(" + params + "options?: RequestOptions): " + ret
		if v14 {
			sig += "; (options?: RequestOptions): " + ret
		}
		return inFile(sym(p+"#"+name, meth, sig), file)
	}
	header := "class"
	if inherits {
		header = "class extends StripeResource"
	}
	out := []model.Symbol{
		inFile(sym(p, class, header), file),
		method("create", "params?: InvoiceCreateParams, ", "Promise<"+q+"Response<"+q+"Invoice>>"),
		method("del", "id: string, params?: InvoiceDeleteParams, ", "Promise<"+q+"Response<"+q+"DeletedInvoice>>"),
		method("list", "params?: InvoiceListParams, ", "ApiListPromise<"+q+"Invoice>"),
		method("pay", "id: string, params?: InvoicePayParams, ", "Promise<"+q+"Response<"+q+"Invoice>>"),
		method("retrieve", "id: string, params?: InvoiceRetrieveParams, ", "Promise<"+q+"Response<"+q+"Invoice>>"),
		method("update", "id: string, params?: InvoiceUpdateParams, ", "Promise<"+q+"Response<"+q+"Invoice>>"),
	}
	if inherits {
		for _, m := range []string{"_makeRequest", "basePath", "path", "resourcePath", "initialize", "requestDataProcessor"} {
			out = append(out, inFile(sym(p+"#"+m, prop, "any"), "cjs/StripeResource.d.ts"))
		}
	} else {
		out = append(out, method("retrieveUpcoming", "params?: InvoiceRetrieveUpcomingParams, ", "Promise<"+q+"Response<"+q+"UpcomingInvoice>>"))
	}
	return out
}
