package diff

import (
	"fmt"
	"testing"

	"github.com/uptide/uptide/engine/model"
)

// benchSurfaces builds two versions of a Stripe-sized API: containers
// interfaces with members each, and a release that changes a realistic
// share of them: 5% of members retyped, 2% removed, 2% added, 1% deprecated,
// and one container in fifty renamed.
func benchSurfaces(containers, membersEach int) (a, b *model.Surface) {
	var as, bs []model.Symbol
	for c := 0; c < containers; c++ {
		name := fmt.Sprintf("Stripe.Resource%04dCreateParams", c)
		newName := name
		if c%50 == 0 {
			newName = fmt.Sprintf("Stripe.Resource%04dCreateParamsV2", c)
		}
		as = append(as, sym(name, iface, "interface extends RequestParams"))
		bs = append(bs, sym(newName, iface, "interface extends RequestParams"))
		for m := 0; m < membersEach; m++ {
			k := c*membersEach + m
			member := fmt.Sprintf("#field%02d", m)
			sig := fmt.Sprintf("'a%d' | 'b%d' | string", m, m)
			switch m % 4 {
			case 1:
				member = fmt.Sprintf("#method%02d", m)
			case 2:
				sig = "Stripe.Metadata | null"
			}
			kind := prop
			if m%4 == 1 {
				kind = meth
				sig = fmt.Sprintf("(id: string, params?: Stripe.Params%d, options?: RequestOptions): Promise<Stripe.Response<Stripe.Item%d>>", m, m)
			}
			sa := sym(name+member, kind, sig)
			as = append(as, sa)
			sb := sa
			sb.Path = newName + member
			switch {
			case k%50 == 7:
				continue // removed
			case k%20 == 3:
				if kind == meth {
					sb.Signature = fmt.Sprintf("(id: string, params?: Stripe.Params%d, options?: RequestOptions, extra?: boolean): Promise<Stripe.Response<Stripe.Item%d>>", m, m)
				} else {
					sb.Signature = sig + " | number"
				}
			case k%100 == 11:
				sb = deprecated(sb, "Use something else.", "somethingElse")
			}
			bs = append(bs, sb)
			if k%50 == 13 {
				bs = append(bs, sym(newName+fmt.Sprintf("#added%02d", m), prop, "boolean"))
			}
		}
	}
	return surface("14.0.0", as...), surface("15.0.0", bs...)
}

func BenchmarkDiff10k(b *testing.B) {
	sa, sb := benchSurfaces(500, 19)
	if n := len(sa.Symbols); n != 10000 {
		b.Fatalf("surface A has %d symbols", n)
	}
	b.ReportAllocs()
	var changes int
	for b.Loop() {
		changes = len(Diff(sa, sb, nil))
	}
	b.ReportMetric(float64(changes), "changes")
}

// BenchmarkHintsWorstCase renames every one of 2,000 top-level containers at
// once, so every removed container is a candidate for every added one.
func BenchmarkHintsWorstCase(b *testing.B) {
	var as, bs []model.Symbol
	for c := 0; c < 2000; c++ {
		as = append(as, sym(fmt.Sprintf("Old%04dParams", c), iface, "interface"), sym(fmt.Sprintf("Old%04dParams#expand", c), prop, "string[]"))
		bs = append(bs, sym(fmt.Sprintf("New%04dParams", c), iface, "interface"), sym(fmt.Sprintf("New%04dParams#expand", c), prop, "string[]"))
	}
	sa, sb := surface("1", as...), surface("2", bs...)
	b.ReportAllocs()
	for b.Loop() {
		Diff(sa, sb, nil)
	}
}

func TestBenchSurfacesDiff(t *testing.T) {
	// The benchmark's input exercises every stage it claims to measure.
	sa, sb := benchSurfaces(50, 19)
	got := Diff(sa, sb, nil)
	rules := map[string]int{}
	hinted := 0
	for _, c := range got {
		rules[c.Rule]++
		if c.Kind == model.ChangeRemoved && c.Replacement != "" {
			hinted++
		}
	}
	for _, id := range []string{"removed", "added", "deprecated", "type/widened", "sig/param/added-optional"} {
		if rules[id] == 0 {
			t.Errorf("no %s change in the benchmark input: %v", id, rules)
		}
	}
	if hinted == 0 {
		t.Errorf("no rename hint in the benchmark input")
	}
}
