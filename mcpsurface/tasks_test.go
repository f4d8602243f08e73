package mcpsurface

import (
	"testing"
	"time"
)

// TestTasksSweep: finished tasks expire after keep, at most max of them
// are kept (the oldest go first), and running ones are never dropped.
func TestTasksSweep(t *testing.T) {
	ts := newTasks(2, time.Minute)
	now := time.Now()
	add := func(id, status string, updated time.Time) {
		ts.m[id] = &task{id: id, status: status, updated: updated, cancel: func() {}}
	}
	add("run1", taskWorking, now.Add(-time.Hour))
	add("run2", taskWorking, now.Add(-time.Hour))
	add("expired", taskCompleted, now.Add(-2*time.Minute))
	add("old", taskCompleted, now.Add(-30*time.Second))
	add("mid", taskCancelled, now.Add(-20*time.Second))
	add("new", taskFailed, now.Add(-10*time.Second))
	if running := ts.sweep(now); running != 2 {
		t.Fatalf("running = %d, want 2", running)
	}
	for _, id := range []string{"run1", "run2", "mid", "new"} {
		if ts.m[id] == nil {
			t.Errorf("%s was dropped", id)
		}
	}
	for _, id := range []string{"expired", "old"} {
		if ts.m[id] != nil {
			t.Errorf("%s was kept", id)
		}
	}
	ts.closeAll()
	if ts.m["run1"].status != taskCancelled {
		t.Errorf("closeAll left a task %s", ts.m["run1"].status)
	}
}
