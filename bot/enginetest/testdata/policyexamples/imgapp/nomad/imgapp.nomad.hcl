# imgapp: one container of var.image with var.memory MiB. Eos replaces the job's label with
# "imgapp--<env>".

variable "env" {
  type = string
}

variable "image" {
  type = string
}

variable "memory" {
  type = number
}

job "imgapp" {
  datacenters = ["dc1"]
  type        = "service"

  meta {
    env = var.env
  }

  group "web" {
    count = 1

    task "server" {
      driver = "docker"

      config {
        image = var.image
      }

      resources {
        cpu    = 20
        memory = var.memory
      }
    }
  }
}
