package html_test

import (
	"bytes"
	"testing"

	"github.com/uptide/uptide/internal/testkit/browser"
	"github.com/uptide/uptide/view/html"
)

// Each page read in a real headless Chromium: its visible text holds
// every value of the report it renders, and it fetched nothing.
func TestPagesInABrowser(t *testing.T) {
	check, plan, run := richCheck(), richPlan(), richFix()
	cases := []struct {
		name   string
		page   func(*bytes.Buffer) error
		values []string
	}{
		{"check", func(b *bytes.Buffer) error { return html.Check(b, check) }, browser.CheckValues(check)},
		{"plan", func(b *bytes.Buffer) error { return html.Plan(b, plan) }, browser.PlanValues(plan)},
		{"fix", func(b *bytes.Buffer) error { return html.Fix(b, run) }, browser.FixValues(run)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := c.page(&b); err != nil {
				t.Fatal(err)
			}
			p := browser.Read(t, b.Bytes())
			browser.Holds(t, c.name, p, c.values)
			if p.Resources != 0 {
				t.Errorf("%s: the page fetched %d resources", c.name, p.Resources)
			}
		})
	}
}
