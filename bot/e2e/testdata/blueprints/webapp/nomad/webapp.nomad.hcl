# webapp: a process that sleeps, or (fail = true) one that exits at once. Eos replaces the job's
# label with "webapp-<env>" and supplies every variable below as a typed HCL2 value.

variable "env" {
  type        = string
  description = "Environment the job runs in."
}

variable "count" {
  type        = number
  default     = 1
  description = "Number of instances."
}

variable "fail" {
  type        = bool
  default     = false
  description = "Run a task that exits at once, so the deployment fails."
}

job "webapp" {
  datacenters = ["dc1"]
  type        = "service"

  meta {
    env       = var.env
    eos_owned = "true"
  }

  # Eos reverts a failed deployment itself, so Nomad's auto_revert stays off.
  update {
    max_parallel      = 1
    health_check      = "task_states"
    min_healthy_time  = "1s"
    healthy_deadline  = "15s"
    progress_deadline = "20s"
    auto_revert       = false
  }

  group "web" {
    count = var.count

    restart {
      attempts = 0
      mode     = "fail"
    }

    reschedule {
      attempts  = 0
      unlimited = false
    }

    task "server" {
      driver       = "raw_exec"
      kill_timeout = "1s"

      config {
        command = "/bin/sh"
        args    = ["-c", var.fail ? "echo failing on purpose >&2; exit 3" : "exec sleep 3600"]
      }

      resources {
        cpu    = 20
        memory = 16
      }
    }
  }
}
