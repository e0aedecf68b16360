package lockfile

import (
	"bytes"
	"fmt"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The benchmarks parse generated lockfiles of about 5 MB, shaped like a
// large monorepo's: 120 workspaces declaring 40 dependencies each, the rest
// of the file a package table with integrity hashes, engines, peers and
// dependency lists. Run:
//
//	go test -run '^$' -bench . -benchmem ./engine/lockfile
const benchSize = 5 << 20

const (
	benchWorkspaces = 120
	benchDeclared   = 40
)

var integrity = "sha512-" + strings.Repeat("q8RkSx0bSoFCpzzFWh7mTqgFJzGmoV0hMYvP4pEG7C3e8BAtaEUS6KjGpUXLrYB5Qjy6rQ", 2)[:86] + "=="

// benchPkg is the i-th package of the synthetic registry graph.
func benchPkg(i int) (name, version string) {
	name = fmt.Sprintf("pkg-%d", i)
	if i%7 == 0 {
		name = fmt.Sprintf("@scope%d/pkg-%d", i%13, i)
	}
	return name, fmt.Sprintf("%d.%d.%d", 1+i%9, i%23, i%5)
}

// benchDecl is the j-th declaration of workspace w: which package, and
// whether it carries a peer suffix.
func benchDecl(w, j int) (int, bool) {
	return (w*17 + j*31) % 2000, j%5 == 0
}

func genPnpm(size int) []byte {
	var b bytes.Buffer
	b.WriteString("lockfileVersion: '9.0'\n\nsettings:\n  autoInstallPeers: true\n  excludeLinksFromLockfile: false\n\nimporters:\n\n")
	for w := 0; w < benchWorkspaces; w++ {
		ws := "."
		if w > 0 {
			ws = fmt.Sprintf("packages/ws-%d", w)
		}
		fmt.Fprintf(&b, "  %s:\n    dependencies:\n", ws)
		for j := 0; j < benchDeclared; j++ {
			i, peer := benchDecl(w, j)
			name, v := benchPkg(i)
			if peer {
				v += "(react@18.3.1)(react-dom@18.3.1(react@18.3.1))"
			}
			fmt.Fprintf(&b, "      %s:\n        specifier: ^%s\n        version: %s\n", yamlKey(name), v, v)
		}
		if w > 1 {
			fmt.Fprintf(&b, "      ws-1:\n        specifier: workspace:*\n        version: link:../ws-1\n")
		}
		b.WriteString("\n")
	}
	b.WriteString("packages:\n\n")
	var snaps bytes.Buffer
	snaps.WriteString("snapshots:\n\n")
	for i := 0; b.Len()+snaps.Len() < size; i++ {
		name, v := benchPkg(i)
		fmt.Fprintf(&b, "  %s:\n    resolution: {integrity: %s}\n    engines: {node: '>=14'}\n", yamlKey(name+"@"+v), integrity)
		if i%3 == 0 {
			b.WriteString("    peerDependencies:\n      react: ^16.8.0 || ^17.0.0 || ^18.0.0\n")
		}
		b.WriteString("\n")
		fmt.Fprintf(&snaps, "  %s:\n    dependencies:\n", yamlKey(name+"@"+v))
		for d := 1; d <= 4; d++ {
			dn, dv := benchPkg(i + d*101)
			fmt.Fprintf(&snaps, "      %s: %s\n", yamlKey(dn), dv)
		}
		fmt.Fprintf(&snaps, "  %s:\n    dependencies:\n      react: 18.3.1\n\n", yamlKey(name+"@"+v+"(react@18.3.1)(react-dom@18.3.1(react@18.3.1))"))
	}
	b.Write(snaps.Bytes())
	return b.Bytes()
}

func yamlKey(s string) string {
	if strings.HasPrefix(s, "@") {
		return "'" + s + "'"
	}
	return s
}

func genNPM(size int, version int) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "{\n  \"name\": \"big\",\n  \"lockfileVersion\": %d,\n  \"requires\": true,\n  \"packages\": {\n", version)
	b.WriteString("    \"\": {\n      \"name\": \"big\",\n      \"workspaces\": [\"packages/*\"]\n    },\n")
	for w := 1; w < benchWorkspaces; w++ {
		fmt.Fprintf(&b, "    \"packages/ws-%d\": {\n      \"version\": \"1.0.0\",\n      \"dependencies\": {\n", w)
		for j := 0; j < benchDeclared; j++ {
			i, _ := benchDecl(w, j)
			name, v := benchPkg(i)
			sep := ","
			if j == benchDeclared-1 {
				sep = ""
			}
			fmt.Fprintf(&b, "        %q: \"^%s\"%s\n", name, v, sep)
		}
		b.WriteString("      }\n    },\n")
		fmt.Fprintf(&b, "    \"node_modules/ws-%d\": {\n      \"resolved\": \"packages/ws-%d\",\n      \"link\": true\n    },\n", w, w)
	}
	var legacy bytes.Buffer
	for i := 0; b.Len()+legacy.Len() < size; i++ {
		name, v := benchPkg(i)
		loc := "node_modules/" + name
		if i%11 == 0 {
			loc = fmt.Sprintf("packages/ws-%d/node_modules/%s", 1+i%(benchWorkspaces-1), name)
		}
		fmt.Fprintf(&b, "    %q: {\n      \"version\": %q,\n      \"resolved\": \"http://127.0.0.1:4873/%s/-/x-%s.tgz\",\n      \"integrity\": %q,\n      \"license\": \"MIT\",\n      \"dependencies\": {\n", loc, v, name, v, integrity)
		for d := 1; d <= 4; d++ {
			dn, dv := benchPkg(i + d*101)
			sep := ","
			if d == 4 {
				sep = ""
			}
			fmt.Fprintf(&b, "        %q: \"^%s\"%s\n", dn, dv, sep)
		}
		b.WriteString("      },\n      \"engines\": {\n        \"node\": \">=14\"\n      }\n    },\n")
		if version == 2 {
			fmt.Fprintf(&legacy, "    %q: {\n      \"version\": %q,\n      \"resolved\": \"http://127.0.0.1:4873/%s/-/x-%s.tgz\",\n      \"integrity\": %q,\n      \"requires\": {\n        \"x\": \"^1.0.0\"\n      }\n    },\n", name, v, name, v, integrity)
		}
	}
	// Close the table on an entry without a trailing comma.
	b.WriteString("    \"node_modules/zz-last\": {\n      \"version\": \"1.0.0\"\n    }\n  }")
	if version == 2 {
		b.WriteString(",\n  \"dependencies\": {\n")
		b.Write(legacy.Bytes())
		b.WriteString("    \"zz-last\": {\n      \"version\": \"1.0.0\"\n    }\n  }")
	}
	b.WriteString("\n}\n")
	return b.Bytes()
}

func genYarnV1(size int) []byte {
	var b bytes.Buffer
	b.WriteString("# THIS IS AN AUTOGENERATED FILE. DO NOT EDIT THIS FILE DIRECTLY.\n# yarn lockfile v1\n\n\n")
	for i := 0; b.Len() < size; i++ {
		name, v := benchPkg(i)
		fmt.Fprintf(&b, "\"%s@^%s\", \"%s@~%s\":\n  version \"%s\"\n  resolved \"http://127.0.0.1:4873/%s/-/x-%s.tgz#0123456789abcdef0123456789abcdef01234567\"\n  integrity %s\n  dependencies:\n", name, v, name, v, v, name, v, integrity)
		for d := 1; d <= 4; d++ {
			dn, dv := benchPkg(i + d*101)
			fmt.Fprintf(&b, "    %q \"^%s\"\n", dn, dv)
		}
		b.WriteString("\n")
	}
	return b.Bytes()
}

func genBerry(size int) []byte {
	var b bytes.Buffer
	b.WriteString("# This file is generated by running \"yarn install\" inside your project.\n# Manual changes might be lost - proceed with caution!\n\n__metadata:\n  version: 8\n  cacheKey: 10c0\n\n")
	for i := 0; b.Len() < size; i++ {
		name, v := benchPkg(i)
		fmt.Fprintf(&b, "\"%s@npm:^%s, %s@npm:~%s\":\n  version: %s\n  resolution: \"%s@npm:%s\"\n  dependencies:\n", name, v, name, v, v, name, v)
		for d := 1; d <= 4; d++ {
			dn, dv := benchPkg(i + d*101)
			fmt.Fprintf(&b, "    %q: \"npm:^%s\"\n", dn, dv)
		}
		fmt.Fprintf(&b, "  checksum: 10c0/%s\n  languageName: node\n  linkType: hard\n\n", strings.Repeat("ab12", 32))
	}
	return b.Bytes()
}

func genBun(size int) []byte {
	var b bytes.Buffer
	b.WriteString("{\n  \"lockfileVersion\": 1,\n  \"workspaces\": {\n    \"\": {\n      \"name\": \"big\",\n    },\n")
	for w := 1; w < benchWorkspaces; w++ {
		fmt.Fprintf(&b, "    \"packages/ws-%d\": {\n      \"name\": \"ws-%d\",\n      \"dependencies\": {\n", w, w)
		for j := 0; j < benchDeclared; j++ {
			i, _ := benchDecl(w, j)
			name, v := benchPkg(i)
			fmt.Fprintf(&b, "        %q: \"^%s\",\n", name, v)
		}
		b.WriteString("      },\n    },\n")
	}
	b.WriteString("  },\n  \"packages\": {\n")
	for i := 0; b.Len() < size; i++ {
		name, v := benchPkg(i)
		key := name
		if i%11 == 0 {
			key = fmt.Sprintf("ws-%d/%s", 1+i%(benchWorkspaces-1), name)
		}
		fmt.Fprintf(&b, "    %q: [\"%s@%s\", \"\", { \"dependencies\": { ", key, name, v)
		for d := 1; d <= 4; d++ {
			dn, dv := benchPkg(i + d*101)
			fmt.Fprintf(&b, "%q: \"^%s\", ", dn, dv)
		}
		fmt.Fprintf(&b, "} }, %q],\n\n", integrity)
	}
	b.WriteString("  }\n}\n")
	return b.Bytes()
}

func benchParse(b *testing.B, name string, data []byte, ws, dep, want string) {
	b.Helper()
	lf, err := Parse("/repo/"+name, data)
	if err != nil {
		b.Fatal(err)
	}
	if got, ok := lf.Installed(ws, dep, "^"+want); !ok || got != want {
		b.Fatalf("Installed(%q, %q) = %q, %v; want %q", ws, dep, got, ok, want)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	cpu0 := cpuTime()
	b.ResetTimer()
	for b.Loop() {
		if _, err := Parse("/repo/"+name, data); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	// CPU time (all threads, the collector's included) does not grow when
	// other processes share the machine, as wall time does.
	b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(retained(data, name)), "retained-B")
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// retained is the heap a parsed lockfile keeps alive once the file's
// bytes are gone.
func retained(data []byte, name string) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	lf, _ := Parse("/repo/"+name, data)
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(lf)
	runtime.KeepAlive(data)
	if after.HeapAlloc < before.HeapAlloc {
		return 0
	}
	return after.HeapAlloc - before.HeapAlloc
}

// firstDecl is what workspace 1's first declaration has installed.
func firstDecl() (ws, name, version string) {
	i, _ := benchDecl(1, 0)
	name, version = benchPkg(i)
	return "packages/ws-1", name, version
}

func BenchmarkParsePnpm5MB(b *testing.B) {
	ws, name, v := firstDecl()
	benchParse(b, "pnpm-lock.yaml", genPnpm(benchSize), ws, name, v)
}

func BenchmarkParseNPMv3_5MB(b *testing.B) {
	data := genNPM(benchSize, 3)
	name, v := benchPkg(3)
	benchParse(b, "package-lock.json", data, ".", name, v)
}

func BenchmarkParseNPMv2_5MB(b *testing.B) {
	data := genNPM(benchSize, 2)
	name, v := benchPkg(3)
	benchParse(b, "package-lock.json", data, ".", name, v)
}

func BenchmarkParseYarnV1_5MB(b *testing.B) {
	name, v := benchPkg(3)
	benchParse(b, "yarn.lock", genYarnV1(benchSize), ".", name, v)
}

func BenchmarkParseBerry5MB(b *testing.B) {
	name, v := benchPkg(3)
	benchParse(b, "yarn.lock", genBerry(benchSize), ".", name, v)
}

func BenchmarkParseBun5MB(b *testing.B) {
	name, v := benchPkg(3)
	benchParse(b, "bun.lock", genBun(benchSize), ".", name, v)
}
