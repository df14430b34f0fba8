package session

import (
	"context"
	"time"
)

// Touched is called after every change to the open job. When the job has a
// file, it (re)schedules the recovery file that keeps the unsaved work next
// to it. Writing is coalesced over the recovery delay, so a burst of edits
// costs one snapshot.
func (s *Service) Touched(ctx context.Context, ws string) {
	if s.recoveryDelay <= 0 {
		s.writeRecovery(ctx, ws)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.pending[ws]; ok {
		return // a write is already due; it will see this change too
	}
	s.wg.Add(1)
	s.pending[ws] = time.AfterFunc(s.recoveryDelay, func() {
		defer s.wg.Done()
		s.mu.Lock()
		delete(s.pending, ws)
		s.mu.Unlock()
		// The request that scheduled the write is long gone; its context
		// must not cancel the write.
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		s.writeRecovery(ctx, ws)
	})
}

// cancelRecovery drops a scheduled write of this process.
func (s *Service) cancelRecovery(ws string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t, ok := s.pending[ws]; ok && t.Stop() {
		delete(s.pending, ws)
		s.wg.Done()
	}
}

// Flush waits for scheduled recovery writes to finish. Shutdown calls it so
// that unsaved work reaches the disk.
func (s *Service) Flush() {
	s.mu.Lock()
	for ws, t := range s.pending {
		if t.Stop() {
			delete(s.pending, ws)
			s.wg.Done()
			s.mu.Unlock()
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			s.writeRecovery(ctx, ws)
			cancel()
			s.mu.Lock()
		}
	}
	s.mu.Unlock()
	s.wg.Wait()
}

// writeRecovery writes the open job's content to its recovery file when
// the job has a file and unsaved changes. Another replica may close or save
// the job meanwhile, so the slot is checked again after the write and the
// file removed when it no longer belongs to an open, modified session.
func (s *Service) writeRecovery(ctx context.Context, ws string) {
	// The slot is cheap to read; the snapshot is the whole model.
	if sl, err := s.jobs.Slot(ctx, ws); err != nil || !sl.State.IsModified || sl.State.File.Path == "" {
		return
	}
	snap, sl, err := s.snapshot(ctx, ws)
	if err != nil || !sl.State.IsModified || sl.State.File.Path == "" {
		if err != nil && !isNoJob(err) {
			s.log.Warn("recovery snapshot failed", "workspace", ws, "err", err)
		}
		return
	}
	dir, err := s.dirOf(ws)
	if err != nil {
		s.log.Warn("recovery directory unusable", "workspace", ws, "err", err)
		return
	}
	p, err := dir.Resolve(sl.State.File.Path)
	if err != nil {
		s.log.Warn("recovery path rejected", "workspace", ws, "path", sl.State.File.Path, "err", err)
		return
	}
	if err := dir.WriteRecovery(p, snap, s.generator, s.now()); err != nil {
		s.log.Warn("recovery write failed", "workspace", ws, "path", p.Rel, "err", err)
		return
	}
	after, err := s.jobs.Slot(ctx, ws)
	if err == nil && (!after.State.IsOpen || after.Session != sl.Session || !after.State.IsModified ||
		after.State.File.Path != sl.State.File.Path) {
		_ = dir.RemoveRecovery(p)
	}
}

// dropRecovery removes the recovery file of a job file path, if any.
func (s *Service) dropRecovery(ws, rel string) {
	if rel == "" {
		return
	}
	dir, err := s.dirOf(ws)
	if err != nil {
		return
	}
	p, err := dir.Resolve(rel)
	if err != nil {
		return
	}
	if err := dir.RemoveRecovery(p); err != nil {
		s.log.Warn("remove recovery file failed", "workspace", ws, "path", rel, "err", err)
	}
}
