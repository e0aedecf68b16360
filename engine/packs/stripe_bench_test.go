package packs

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkStripePin reads the pin from a tree shaped like stripe 23's
// declarations: 400 resource files of about 25 KB, the pin in one of them.
func BenchmarkStripePin(b *testing.B) {
	dir := b.TempDir()
	var body strings.Builder
	for i := 0; i < 120; i++ {
		fmt.Fprintf(&body, "    interface Resource%dCreateParams {\n      /** The identifier of the resource. */\n      id?: string;\n      expand?: Array<string>;\n      metadata?: Stripe.Emptyable<Stripe.MetadataParam>;\n    }\n", i)
	}
	for i := 0; i < 400; i++ {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("Resource%d.d.ts", i)), []byte("declare module 'stripe' {\n  namespace Stripe {\n"+body.String()+"  }\n}\n"), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "apiVersion.d.ts"), []byte("export const ApiVersion = '2026-11-18.endive';\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if pin, err := stripePin(dir); err != nil || pin != "2026-11-18.endive" {
			b.Fatalf("pin %q %v", pin, err)
		}
	}
}
