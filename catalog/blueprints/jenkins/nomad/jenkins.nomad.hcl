# Jenkins on Nomad: the controller, with its home on the data volume Salt mounted.
# Every value Eos supplies is an HCL2 variable below; Nomad parses the job with their values.

variable "env" {
  type        = string
  description = "Environment the job runs in."
}

variable "domain" {
  type        = string
  description = "Public DNS name Jenkins answers on."
}

variable "executors" {
  type        = number
  default     = 2
  description = "Builds the controller runs at once."
}

variable "data_dir" {
  type        = string
  description = "Host directory on the data volume Salt mounted."
}

variable "vault_secrets_path" {
  type        = string
  default     = ""
  description = "Set by Eos: the Vault path the template reads the service's secrets at, one key each (admin_password)."
}

variable "datacenters" {
  type        = list(string)
  default     = ["dc1"]
  description = "Datacenters the job may run in."
}

variable "image" {
  type        = string
  default     = "jenkins/jenkins:lts-jdk17"
  description = "Jenkins container image."
}

job "jenkins" {
  datacenters = var.datacenters
  type        = "service"

  meta {
    env       = var.env
    eos_owned = "true"
  }

  update {
    max_parallel      = 1
    health_check      = "checks"
    min_healthy_time  = "30s"
    healthy_deadline  = "10m"
    progress_deadline = "15m"
    auto_revert       = true
  }

  group "controller" {
    count = 1

    network {
      port "http" {
        to = 8080
      }
      port "agents" {
        to = 50000
      }
    }

    service {
      name     = "jenkins-${var.env}"
      port     = "http"
      provider = "nomad"
      tags = [
        "traefik.enable=true",
        "traefik.http.routers.jenkins-${var.env}.rule=Host(`${var.domain}`)",
      ]

      check {
        type     = "http"
        path     = "/login"
        interval = "20s"
        timeout  = "5s"
      }
    }

    service {
      name     = "jenkins-agents-${var.env}"
      port     = "agents"
      provider = "nomad"
    }

    task "jenkins" {
      driver = "docker"

      config {
        image   = var.image
        ports   = ["http", "agents"]
        volumes = ["${var.data_dir}:/var/jenkins_home"]
      }

      env {
        JENKINS_OPTS   = "--httpPort=8080"
        JAVA_OPTS      = "-Djenkins.install.runSetupWizard=false"
        JENKINS_URL    = "https://${var.domain}/"
        CASC_EXECUTORS = var.executors
      }

      vault {
        policies = ["eos-secrets"]
      }

      template {
        destination = "secrets/admin.env"
        env         = true
        data        = <<-EOT
          {{ with secret "${var.vault_secrets_path}" }}JENKINS_ADMIN_PASSWORD={{ .Data.data.admin_password }}{{ end }}
        EOT
      }

      resources {
        cpu    = 1000
        memory = 2048
      }
    }
  }
}
