# flaky: healthy for eight seconds, then it exits 2 unless /tmp/eos-e2e-ready-<env> exists.
# Nomad would place a failed allocation again, but only an hour later.

variable "env" {
  type        = string
  description = "Environment the job runs in."
}

job "flaky" {
  datacenters = ["dc1"]
  type        = "service"

  meta {
    env       = var.env
    eos_owned = "true"
  }

  update {
    max_parallel      = 1
    health_check      = "task_states"
    min_healthy_time  = "1s"
    healthy_deadline  = "15s"
    progress_deadline = "20s"
    auto_revert       = false
  }

  group "app" {
    restart {
      attempts = 0
      mode     = "fail"
    }

    reschedule {
      attempts  = 1
      interval  = "24h"
      delay     = "1h"
      unlimited = false
    }

    task "main" {
      driver       = "raw_exec"
      kill_timeout = "1s"

      config {
        command = "/bin/sh"
        args    = ["-c", "sleep 8; test -f /tmp/eos-e2e-ready-${var.env} && exec sleep 3600; exit 2"]
      }

      resources {
        cpu    = 20
        memory = 16
      }
    }
  }
}
