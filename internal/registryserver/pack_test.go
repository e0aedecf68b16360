package registryserver

import (
	"bytes"
	"compress/gzip"
	"io"
	"math/rand/v2"
	"testing"
)

// TestStoredGzipMatchesCompressGzip checks the hand-written stored stream
// against compress/gzip at NoCompression (which fixed the bytes of the
// fixture lockfiles) and against a gzip reader, across block boundaries.
func TestStoredGzipMatchesCompressGzip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 512, 65534, 65535, 65536, 2*65535 + 7, 3 * 65535} {
		data := make([]byte, n)
		for i := range data {
			data[i] = byte(rng.UintN(256))
		}
		got := storedGzip(data)

		var want bytes.Buffer
		zw, err := gzip.NewWriterLevel(&want, gzip.NoCompression)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := zw.Write(data); err != nil {
			t.Fatal(err)
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want.Bytes()) {
			t.Errorf("n=%d: storedGzip differs from compress/gzip NoCompression (%d vs %d bytes)", n, len(got), want.Len())
		}

		zr, err := gzip.NewReader(bytes.NewReader(got))
		if err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		back, err := io.ReadAll(zr)
		if err != nil || !bytes.Equal(back, data) {
			t.Errorf("n=%d: round trip failed: %v", n, err)
		}
	}
}
