# Eos as a Nomad job on the raw_exec driver, running a binary already on the node: for a
# development agent (nomad agent -dev) and for the end-to-end test, which builds eos and runs
# this job on the test agent. Production uses eos.nomad.hcl (docker).
#
# With no chat adapter configured, `eos serve` runs the console. A task's stdin is /dev/null,
# so the console would see end of input and Eos would stop at once; the job feeds it an input
# that never ends instead (tail -f /dev/null, through bash's process substitution), and Eos
# serves /healthz and /metrics until Nomad stops it.

variable "eos_binary" {
  type        = string
  description = "Absolute path of the eos binary on the node."
}

variable "data_dir" {
  type        = string
  description = "Directory holding the store, Terraform working directories and caches."
}

variable "listen_port" {
  type        = number
  default     = 9747
  description = "Loopback port of /healthz and /metrics; 0 lets Nomad pick one (for replicas on one node)."
}

variable "replicas" {
  type        = number
  default     = 1
  description = "How many Eos run; more than one needs store_dsn (and listen_port 0 on one node)."
}

variable "store_dsn" {
  type        = string
  default     = ""
  description = "PostgreSQL store shared by the replicas; empty: a bbolt file in data_dir."
}

variable "path" {
  type        = string
  default     = "/usr/local/bin:/usr/bin:/bin"
  description = "PATH of the task: where eos finds terraform."
}

variable "datacenters" {
  type        = list(string)
  default     = ["dc1"]
  description = "Datacenters Eos may run in."
}

job "eos" {
  datacenters = var.datacenters
  type        = "service"

  update {
    max_parallel      = 1
    health_check      = "checks"
    min_healthy_time  = "1s"
    healthy_deadline  = "1m"
    progress_deadline = "2m"
    auto_revert       = false
  }

  group "eos" {
    count = var.replicas

    # A replica that lost its leadership exits on purpose; it comes back as a standby.
    restart {
      attempts = 10
      interval = "5m"
      delay    = "1s"
      mode     = "delay"
    }

    network {
      port "ops" {
        static = var.listen_port
      }
    }

    service {
      name     = "eos"
      port     = "ops"
      provider = "nomad"

      check {
        name     = "healthz"
        type     = "http"
        path     = "/healthz"
        interval = "2s"
        timeout  = "2s"
      }
    }

    task "eos" {
      driver       = "raw_exec"
      kill_signal  = "SIGTERM"
      kill_timeout = "10s"

      # The binary's path arrives as $0, never pasted into the script. bash execs eos, so eos
      # itself receives Nomad's SIGTERM and shuts down cleanly.
      config {
        command = "/bin/bash"
        args    = ["-c", "exec \"$0\" serve < <(exec tail -f /dev/null)", var.eos_binary]
      }

      env {
        PATH           = var.path
        HOME           = var.data_dir
        XDG_CACHE_HOME = "${var.data_dir}/cache"
        EOS_DATA_DIR   = "${var.data_dir}/${NOMAD_ALLOC_INDEX}"
        EOS_STORE_DSN  = var.store_dsn
        EOS_LISTEN     = "127.0.0.1:${NOMAD_PORT_ops}"
      }

      resources {
        cpu    = 200
        memory = 256
      }
    }
  }
}
