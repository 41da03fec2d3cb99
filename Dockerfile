# Eos: a static binary on a small base, run as a non-root user, with Terraform beside it.
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ENV CGO_ENABLED=0 GOTOOLCHAIN=local
RUN go build -trimpath -ldflags "-s -w" -o /out/eos ./cmd/eos \
 && GOBIN=/out go install github.com/hashicorp/terraform@v1.5.7 \
 && scripts/eoslab-mirror.sh /out/providers

FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --home-dir /var/lib/eos --create-home --uid 10001 eos
COPY --from=build /out/eos /out/terraform /usr/local/bin/
COPY --from=build /out/providers /usr/share/eos/providers
USER eos
WORKDIR /var/lib/eos
ENV EOS_DATA_DIR=/var/lib/eos EOS_TERRAFORM_MIRROR=/usr/share/eos/providers
ENTRYPOINT ["/usr/local/bin/eos"]
CMD ["serve"]
