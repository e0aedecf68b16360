// Command gen regenerates the stripe pack's snapshot of Stripe API changes
// (engine/packs/stripe/changelog.json) from the CHANGELOG.md a published
// stripe release ships: fetched through Uptide's own registry client (the
// registry your npm configuration names, the tarball's integrity
// verified), or read from a local file with -changelog. Run it from the
// repository root:
//
//	go run ./engine/packs/stripe/gen                      # the latest stripe
//	go run ./engine/packs/stripe/gen -version 23.2.0
//	go run ./engine/packs/stripe/gen -changelog CHANGELOG.md -package stripe@23.2.0
//
// It is a maintainer's tool, run by hand; the tests never run it.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"github.com/uptide/uptide/engine/packs/stripe"
	"github.com/uptide/uptide/engine/registry"
)

func main() {
	if err := run(os.Args[1:], os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(args []string, report io.Writer) error {
	fs := flag.NewFlagSet("gen", flag.ContinueOnError)
	fs.SetOutput(report)
	version := fs.String("version", "latest", "the stripe version or dist-tag whose CHANGELOG.md is read from the registry")
	local := fs.String("changelog", "", "read this CHANGELOG.md instead of fetching one (then -package names its release)")
	pkg := fs.String("package", "", "with -changelog: the release the file comes from, as stripe@<version>")
	out := fs.String("out", filepath.Join("engine", "packs", "stripe", "changelog.json"), "where to write the snapshot")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q: every input is a flag (-version, -changelog, -package, -out)", fs.Args())
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	var text []byte
	var src stripe.Source
	switch {
	case *local != "":
		if !strings.HasPrefix(*pkg, "stripe@") || len(*pkg) == len("stripe@") {
			return fmt.Errorf("-changelog %s needs -package stripe@<version>, the release the file comes from", *local)
		}
		b, err := os.ReadFile(*local)
		if err != nil {
			return err
		}
		text, src = b, stripe.Source{Package: *pkg, File: filepath.Base(*local)}
	default:
		if *pkg != "" {
			return errors.New("-package only goes with -changelog; use -version to choose the release to fetch")
		}
		b, s, err := fetch(ctx, *version)
		if err != nil {
			return err
		}
		text, src = b, s
	}
	snap, err := stripe.Build(text, src)
	if err != nil {
		return fmt.Errorf("%s %s: %w", src.Package, src.File, err)
	}
	b, err := stripe.Marshal(snap)
	if err != nil {
		return err
	}
	if _, err := stripe.Decode(b); err != nil {
		return fmt.Errorf("the snapshot written would not read back: %w", err)
	}
	if err := writeAtomic(*out, b); err != nil {
		return err
	}
	fmt.Fprintf(report, "wrote %s: %s, %d API versions (%s to %s), %d breaking entries\n",
		*out, src.Package, len(snap.Versions), snap.Versions[0], snap.Versions[len(snap.Versions)-1], len(snap.Entries))
	return nil
}

// fetch reads CHANGELOG.md from the stripe release's tarball, fetched and
// verified by the engine's registry client with the npm configuration
// that applies in the working directory.
func fetch(ctx context.Context, version string) ([]byte, stripe.Source, error) {
	wd, err := os.Getwd()
	if err != nil {
		return nil, stripe.Source{}, err
	}
	cfg, err := registry.LoadConfig(wd, nil)
	if err != nil {
		return nil, stripe.Source{}, err
	}
	p, err := registry.New(registry.Options{Config: cfg}).Fetch(ctx, "stripe", version)
	if err != nil {
		return nil, stripe.Source{}, err
	}
	defer func() { _ = p.Remove() }()
	b, err := os.ReadFile(filepath.Join(p.Dir, "CHANGELOG.md"))
	if err != nil {
		return nil, stripe.Source{}, fmt.Errorf("stripe@%s ships no CHANGELOG.md: %w", p.Version, err)
	}
	integrity := p.Manifest.Dist.Integrity
	if integrity == "" && p.Manifest.Dist.Shasum != "" {
		integrity = "sha1:" + p.Manifest.Dist.Shasum
	}
	return b, stripe.Source{Package: "stripe@" + p.Version, Integrity: integrity, File: "CHANGELOG.md"}, nil
}

func writeAtomic(path string, b []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".changelog-*.json")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
