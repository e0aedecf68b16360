package stripe

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden.json from the parser's output")

const excerpt = "testdata/CHANGELOG.excerpt.md"

// TestParseExcerpt: releases copied from stripe's real CHANGELOG.md (a
// minor and three majors that move the pin, two minors that do not, the
// three ways breaking changes are marked) give the API versions the pins
// moved to and each moving release's breaking entries, in the CHANGELOG's
// words; the whole snapshot matches the golden file.
func TestParseExcerpt(t *testing.T) {
	b, err := os.ReadFile(excerpt)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := Build(b, Source{Package: "stripe@17.7.0", File: "CHANGELOG.md"})
	if err != nil {
		t.Fatal(err)
	}
	wantVersions := []string{"2023-08-16", "2024-04-10", "2024-09-30.acacia", "2025-02-24.acacia"}
	if !slices.Equal(snap.Versions, wantVersions) {
		t.Errorf("versions %q, want %q", snap.Versions, wantVersions)
	}
	perRelease := map[string]int{}
	for _, e := range snap.Entries {
		perRelease[e.Release]++
		if !e.Breaking || strings.Contains(e.Summary, "](") || strings.Contains(e.Summary, "⚠") {
			t.Errorf("entry %+v: want breaking, without markdown links or ⚠️", e)
		}
	}
	// 17.7.0 moves the pin with no breaking change; 16.12.0 and 14.25.0
	// keep it. 17.0.0's "Other Breaking changes in the SDK" are the SDK's.
	// 13.0.0 marks entries inline: 2 of its own and 15 under #1872, whose
	// unmarked siblings are not breaking.
	wantPer := map[string]int{"17.0.0": 3, "15.0.0": 15, "13.0.0": 17}
	if !maps(perRelease, wantPer) {
		t.Errorf("entries per release %v, want %v", perRelease, wantPer)
	}
	for _, want := range []Entry{
		{Version: "2024-04-10", Release: "15.0.0", Breaking: true, Area: "Product", Summary: "Rename `features` to `marketing_features` on `ProductCreateOptions`, `ProductUpdateOptions`, and `Product`."},
		{Version: "2024-04-10", Release: "15.0.0", Breaking: true, Summary: "Remove deprecated events: `invoiceitem.updated`; `order.created`; `recipient.created`; `recipient.deleted`; `recipient.updated`; `sku.created`; `sku.deleted`; `sku.updated`"},
		{Version: "2024-09-30.acacia", Release: "17.0.0", Breaking: true, Area: "Billing.Alert", Summary: "Rename `usage_threshold_config` to `usage_threshold` on `Billing.AlertCreateParams` and `Billing.Alert`"},
		{Version: "2023-08-16", Release: "13.0.0", Breaking: true, Area: "Charge", Summary: "Remove support for `destination` on `Charge`: Please use `transfer_data` or `on_behalf_of` instead."},
		{Version: "2023-08-16", Release: "13.0.0", Breaking: true, Summary: "#1803 Change the default behavior to perform 1 reattempt on retryable request failures (previously the default was 0)."},
	} {
		if !slices.Contains(snap.Entries, want) {
			t.Errorf("no entry %+v", want)
		}
	}
	for _, e := range snap.Entries {
		if strings.Contains(e.Summary, "max retries") || strings.Contains(e.Summary, "Allow request-level options") {
			t.Errorf("entry %q is not an API breaking change", e.Summary)
		}
	}

	got, err := Marshal(snap)
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "CHANGELOG.excerpt.golden.json")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (write it with go test ./engine/packs/stripe -run TestParseExcerpt -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("snapshot of %s differs from %s:\n%s", excerpt, golden, got)
	}
	if _, err := Decode(got); err != nil {
		t.Errorf("the snapshot does not read back: %v", err)
	}
}

func maps(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// TestParseRefuses: input that is not a stripe CHANGELOG, or one whose
// pins make no sense, is an error naming what is wrong, never an empty
// snapshot.
func TestParseRefuses(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"empty", "", "no release heading"},
		{"not text", "\xff\xfe## 1.0.0 - 2020-01-01", "not UTF-8"},
		{"another changelog", "# Changelog\n\n## 1.2.0 - 2024-01-01\n* Fix a bug\n", "no release states a pinned API version"},
		{"a pin that is no date", "## 2.0.0 - 2024-01-01\nThis release changes the pinned API version to `latest`.\n", `pins API version "latest", which is not a date`},
		{"pins going back", "## 2.0.0 - 2024-02-01\nThis release changes the pinned API version to `2023-01-01`.\n\n## 1.0.0 - 2024-01-01\nThis release changes the pinned API version to `2024-01-01`.\n", "release 2.0.0 pins API version 2023-01-01, older than 2024-01-01 pinned by release 1.0.0"},
		{"a pin again", "## 3.0.0 - 2024-03-01\nThis release changes the pinned API version to `2024-01-01`.\n\n## 2.0.0 - 2024-02-01\nThis release changes the pinned API version to `2024-01-01.acacia`.\n\n## 1.0.0 - 2024-01-01\nThis release changes the pinned API version to `2024-01-01`.\n", "release 3.0.0 pins API version 2024-01-01 again"},
	} {
		t.Run(c.name, func(t *testing.T) {
			v, e, err := Parse([]byte(c.in))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Parse: %v (%d versions, %d entries), want an error with %q", err, len(v), len(e), c.want)
			}
		})
	}
}

// TestShippedSnapshot: the snapshot in the tree reads back with its
// checksum (a hand edit that does not regenerate it fails here), names
// the tarball it was read from, covers the test registry's stripe 14 and
// 15 pins, and is byte for byte what the generator writes.
func TestShippedSnapshot(t *testing.T) {
	snap, err := Shipped()
	if err != nil {
		t.Fatalf("engine/packs/stripe/changelog.json: %v (regenerate it with go run ./engine/packs/stripe/gen)", err)
	}
	if !strings.HasPrefix(snap.Source.Package, "stripe@") || !strings.HasPrefix(snap.Source.Integrity, "sha512-") || len(snap.Source.SHA256) != 64 {
		t.Errorf("source %+v: want the stripe release, its tarball's integrity and the CHANGELOG's digest", snap.Source)
	}
	for _, v := range []string{"2023-10-16", "2024-04-10"} {
		if !snap.Covers(v) {
			t.Errorf("the snapshot does not cover %s", v)
		}
	}
	if n := len(snap.Between("2023-10-16", "2024-04-10")); n == 0 {
		t.Error("no entry between 2023-10-16 and 2024-04-10")
	}
	again, err := Marshal(snap)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again, shippedJSON) {
		t.Error("changelog.json is not as the generator writes it: regenerate it with go run ./engine/packs/stripe/gen")
	}
}

// TestDecodeRefuses: each way a snapshot can be wrong is named.
func TestDecodeRefuses(t *testing.T) {
	good := &Snapshot{Source: Source{Package: "stripe@1.0.0"}, Versions: []string{"2024-01-01", "2024-02-01"},
		Entries: []Entry{{Version: "2024-02-01", Release: "2.0.0", Breaking: true, Summary: "Remove `x`"}}}
	b, err := Marshal(good)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Decode(b); err != nil {
		t.Fatalf("a good snapshot: %v", err)
	}
	edit := func(f func(s *Snapshot)) []byte {
		s := *good
		s.Entries = slices.Clone(good.Entries)
		s.Versions = slices.Clone(good.Versions)
		f(&s)
		out, err := Marshal(&s)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	for _, c := range []struct {
		name string
		in   []byte
		want string
	}{
		{"hand edit", bytes.Replace(b, []byte("Remove `x`"), []byte("Remove `y`"), 1), "does not match its versions and entries"},
		{"schema 1", []byte(`{"schemaVersion": 1, "versions": ["2024-01-01"], "entries": [], "checksum": ""}`), "schema version 1, this build reads 2"},
		{"unknown field", []byte(`{"schemaVersion": 2, "snapshot": 1}`), "unknown field"},
		{"trailing data", append(slices.Clone(b), []byte("{}")...), "data after the JSON object"},
		{"no versions", edit(func(s *Snapshot) { s.Versions, s.Entries = nil, nil }), "lists no API version"},
		{"entry of an unknown version", edit(func(s *Snapshot) { s.Entries[0].Version = "2024-03-01" }), `names API version "2024-03-01"`},
		{"a version twice", edit(func(s *Snapshot) { s.Versions = append(s.Versions, "2024-01-01") }), "listed twice"},
		{"empty summary", edit(func(s *Snapshot) { s.Entries[0].Summary = "" }), "has no summary"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, err := Decode(c.in); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Decode: %v, want an error with %q", err, c.want)
			}
		})
	}
}

// FuzzParse: the CHANGELOG is outside input. Parse never panics, and what
// it accepts is a consistent snapshot that reads back.
func FuzzParse(f *testing.F) {
	// One seed per release of the excerpt: the whole file is too large
	// for the fuzzer to minimize what it finds in reasonable time.
	if b, err := os.ReadFile(excerpt); err == nil {
		for _, r := range strings.Split(string(b), "\n## ")[1:] {
			f.Add([]byte("## " + r))
		}
	}
	f.Add([]byte("## 2.0.0 - 2024-02-01\nThis release changes the pinned API version to `2024-02-01`.\n### ⚠️ Breaking\n* a\n  * ⚠️ b\n    ```\n## 1.0.0 - 2024-01-01\n"))
	f.Add([]byte("## 1.0.0 - 2024-01-01\nTypes are now for the API version `2024-01-01`.\n*\t⚠️\n   1) [x](y `Z.a`\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		versions, entries, err := Parse(b)
		if err != nil {
			return
		}
		if len(versions) == 0 {
			t.Fatal("accepted with no API version")
		}
		for _, e := range entries {
			if e.Summary == "" || !slices.Contains(versions, e.Version) {
				t.Fatalf("entry %+v of versions %q", e, versions)
			}
		}
		out, err := Marshal(&Snapshot{Versions: versions, Entries: entries})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Decode(out); err != nil {
			t.Fatalf("does not read back: %v", err)
		}
	})
}
