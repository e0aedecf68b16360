// Command testregistry serves a fixture tree over the npm registry protocol
// so real package managers can install from it; fixtures/repos/regen.sh uses
// it to produce lockfiles. It prints the registry URL on the first line of
// stdout and serves until interrupted.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/uptide/uptide/internal/testkit/testregistry"
)

func main() {
	os.Exit(run())
}

func run() int {
	dir := flag.String("dir", "fixtures/registry", "fixture tree: <name>/<version>/package.json")
	addr := flag.String("addr", "127.0.0.1:0", "listen address; port 0 picks a free one")
	latency := flag.Duration("latency", 0, "delay every answer by this much")
	verbose := flag.Bool("v", false, "log each request on stderr when the registry stops")
	flag.Parse()

	if st, err := os.Stat(*dir); err != nil || !st.IsDir() {
		fmt.Fprintf(os.Stderr, "testregistry: %s is not a directory: pass -dir with the fixture tree (fixtures/registry)\n", *dir)
		return 2
	}
	reg, err := testregistry.New(os.DirFS(*dir))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	reg.SetLatency(*latency)
	url, err := reg.StartAt(*addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println(url)
	fmt.Fprintf(os.Stderr, "testregistry: serving %d packages from %s\n", len(reg.Packages()), *dir)

	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	<-sig
	reg.Close()
	if *verbose {
		for _, r := range reg.Log() {
			fmt.Fprintf(os.Stderr, "%s %s %d accept=%q\n", r.Method, r.RawPath, r.Status, r.Accept)
		}
	}
	return 0
}
