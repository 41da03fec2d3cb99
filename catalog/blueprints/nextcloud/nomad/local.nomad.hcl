# Nextcloud, local variant: a small real process standing for Nextcloud on a Nomad dev agent, which
# has no container engine. raw_exec runs Python's http.server on a free loopback port, serving a
# page that names the service, its domain and its flags. It declares the same variables as the
# production job (nextcloud.nomad.hcl); values reach the page through the task's meta, never pasted
# into the template text. Eos replaces the job's label with "nextcloud--<env>".

variable "env" {
  type        = string
  description = "Environment the job runs in."
}

variable "domain" {
  type        = string
  description = "Public DNS name Nextcloud answers on."
}

variable "sso" {
  type        = bool
  default     = false
  description = "Sign users in through authentik (OpenID Connect)."
}

variable "data_dir" {
  type        = string
  description = "Host directory on the data volume Salt mounted (shown on the page; the local job writes nothing there)."
}

variable "vault_secrets_path" {
  type        = string
  default     = ""
  description = "Set by Eos: where the service's secrets are in Vault, one key each; empty without Vault (shown on the page; the local job reads no secret)."
}

variable "datacenters" {
  type        = list(string)
  default     = ["dc1"]
  description = "Datacenters the job may run in."
}

job "nextcloud" {
  datacenters = var.datacenters
  type        = "service"

  meta {
    env       = var.env
    eos_owned = "true"
  }

  # Eos reverts a failed deployment itself, so Nomad's auto_revert stays off.
  update {
    max_parallel      = 1
    health_check      = "checks"
    min_healthy_time  = "2s"
    healthy_deadline  = "1m"
    progress_deadline = "2m"
    auto_revert       = false
  }

  group "nextcloud" {
    count = 1

    network {
      port "http" {}
    }

    # Nomad's own service discovery (no Consul): the check is what makes the deployment healthy.
    service {
      name     = "${NOMAD_JOB_NAME}"
      port     = "http"
      provider = "nomad"

      check {
        type     = "http"
        path     = "/"
        interval = "2s"
        timeout  = "1s"
      }
    }

    restart {
      attempts = 1
      delay    = "2s"
      mode     = "fail"
    }

    task "nextcloud" {
      driver       = "raw_exec"
      kill_timeout = "2s"

      config {
        command = "/bin/sh"
        args    = ["-c", "exec python3 -m http.server \"$NOMAD_PORT_http\" --bind 127.0.0.1 --directory \"$NOMAD_TASK_DIR\""]
      }

      meta {
        service      = "nextcloud"
        env          = var.env
        domain       = var.domain
        sso          = var.sso
        data_dir     = var.data_dir
        secrets_path = var.vault_secrets_path
      }

      template {
        destination = "local/index.html"
        data        = <<-EOT
          <!doctype html>
          <title>{{ env "NOMAD_META_service" | html }} · {{ env "NOMAD_META_domain" | html }}</title>
          <h1>{{ env "NOMAD_META_service" | html }} (file sync and share)</h1>
          <p>{{ env "NOMAD_META_domain" | html }} in environment {{ env "NOMAD_META_env" | html }}, deployed by Eos on Nomad (local variant).</p>
          <table>
          <tr><th>sso</th><td>{{ env "NOMAD_META_sso" | html }}</td></tr>
          <tr><th>data_dir</th><td>{{ env "NOMAD_META_data_dir" | html }}</td></tr>
          <tr><th>secrets_path</th><td>{{ env "NOMAD_META_secrets_path" | html }}</td></tr>
          </table>
        EOT
      }

      resources {
        cpu    = 50
        memory = 64
      }
    }
  }
}
