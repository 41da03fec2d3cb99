# ledger: two sleeping processes. The db group's command line carries the schema version, so a
# new version is a destructive update of that group alone.

variable "env" {
  type        = string
  description = "Environment the job runs in."
}

variable "schema" {
  type        = number
  default     = 1
  description = "Schema version of the database task."
}

job "ledger" {
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

  group "db" {
    restart {
      attempts = 0
      mode     = "fail"
    }

    reschedule {
      attempts  = 0
      unlimited = false
    }

    task "store" {
      driver       = "raw_exec"
      kill_timeout = "1s"

      config {
        command = "/bin/sh"
        args    = ["-c", "exec sleep 3600", "schema-${var.schema}"]
      }

      resources {
        cpu    = 20
        memory = 16
      }
    }
  }

  group "web" {
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
        args    = ["-c", "exec sleep 3600"]
      }

      resources {
        cpu    = 20
        memory = 16
      }
    }
  }
}
