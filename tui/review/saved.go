package review

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/uptide/uptide/fix"
)

// Saved is src with its accepted set kept on disk in file, as the patch
// file `uptide fix --patches` reads: written after every decision, so
// leaving the queue (or the planner) keeps it. A file saved by an
// earlier review of the same upgrade is taken up again: each of its
// patches whose site is in the queue is validated again on the upgraded
// clone (no call is made) and accepted once it validates. The int is how
// many saved patches were taken up.
func Saved(ctx context.Context, src Source, file, pkg, target string) (Source, int, error) {
	s := &savedSource{Source: src, file: file, pkg: pkg, target: target, pending: map[string]string{},
		changed: make(chan struct{}, 1)}
	prev, err := fix.ReadPatches(file)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		prev = nil
	case err != nil:
		return nil, 0, fmt.Errorf("the accepted set saved by an earlier review: %w (remove it to start over)", err)
	}
	if prev != nil && prev.Package == pkg && prev.Target == target {
		sites := map[string]bool{}
		for _, it := range src.Items() {
			sites[it.Site.ID] = true
		}
		for _, p := range prev.Patches {
			if p.Finding != "" && sites[p.Finding] {
				s.pending[p.Finding] = p.Diff
			}
		}
	}
	n := len(s.pending)
	for id, diff := range s.pending {
		src.Replace(id, diff)
	}
	go s.forward(ctx)
	return s, n, nil
}

// savedSource saves after every decision and accepts the resumed patches
// as they validate.
type savedSource struct {
	Source
	file, pkg, target string
	changed           chan struct{}

	mu sync.Mutex
	// pending are the resumed patches still validating, by site.
	pending map[string]string
	err     error
}

// Close stops the queue's work, when it has a Close.
func (s *savedSource) Close() {
	if c, ok := s.Source.(interface{ Close() }); ok {
		c.Close()
	}
}

// PatchesFile is where the accepted set is kept.
func (s *savedSource) PatchesFile() string { return s.file }

func (s *savedSource) Changed() <-chan struct{} { return s.changed }

// forward passes the queue's changes on, after accepting the resumed
// patches that validated.
func (s *savedSource) forward(ctx context.Context) {
	in := s.Source.Changed()
	for {
		select {
		case _, ok := <-in:
			if !ok {
				close(s.changed)
				return
			}
			s.takeUp()
			select {
			case s.changed <- struct{}{}:
			default:
			}
		case <-ctx.Done():
			return
		}
	}
}

// takeUp accepts the pending sites that validated with their saved diff
// and forgets those that did not (they stay the user's to decide).
func (s *savedSource) takeUp() {
	s.mu.Lock()
	if len(s.pending) == 0 {
		s.mu.Unlock()
		return
	}
	var accept []string
	for _, it := range s.Source.Items() {
		if _, ok := s.pending[it.Site.ID]; !ok {
			continue
		}
		switch it.Status {
		case Valid:
			accept = append(accept, it.Site.ID)
			delete(s.pending, it.Site.ID)
		case Invalid, Manual, Accepted, Rejected, Skipped, Resolved:
			delete(s.pending, it.Site.ID)
		}
	}
	s.mu.Unlock()
	for _, id := range accept {
		s.Source.Accept(id)
	}
	if len(accept) > 0 {
		s.save()
	}
}

func (s *savedSource) Accept(id string) {
	s.forget(id)
	s.Source.Accept(id)
	s.save()
}

func (s *savedSource) Reject(id string) {
	s.forget(id)
	s.Source.Reject(id)
	s.save()
}

func (s *savedSource) Skip(id string) {
	s.forget(id)
	s.Source.Skip(id)
	s.save()
}

func (s *savedSource) Retry(id, hint string) {
	s.forget(id)
	s.Source.Retry(id, hint)
	s.save()
}

func (s *savedSource) Replace(id, diff string) {
	s.forget(id)
	s.Source.Replace(id, diff)
	s.save()
}

func (s *savedSource) AcceptRule(rule string) int {
	n := s.Source.AcceptRule(rule)
	s.save()
	return n
}

// forget drops a resumed patch the user decided on before it validated.
func (s *savedSource) forget(id string) {
	s.mu.Lock()
	delete(s.pending, id)
	s.mu.Unlock()
}

// save writes the accepted set (atomically: a rename); a failure is kept
// for the next save to try again, since the set is still in memory.
func (s *savedSource) save() {
	pf := fix.PatchFile{SchemaVersion: 1, Package: s.pkg, Target: s.target, Patches: []fix.Patch{}}
	for _, it := range s.Source.Items() {
		if it.Status == Accepted {
			pf.Patches = append(pf.Patches, PatchOf(it))
		}
	}
	data, err := json.MarshalIndent(pf, "", "  ")
	if err == nil {
		err = writeFile(s.file, append(data, '\n'))
	}
	s.mu.Lock()
	s.err = err
	s.mu.Unlock()
}

// SaveErr is the last save's failure, nil when the file is current.
func (s *savedSource) SaveErr() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

func writeFile(file string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), ".accepted-*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), file)
}
