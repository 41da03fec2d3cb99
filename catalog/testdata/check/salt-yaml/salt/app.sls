{%- set name = salt['pillar.get']('name') %}

app-packages:
  pkg.installed:
    - pkgs:
      - nginx

app-config:
  file.managed:
    - name: /etc/{{ name }}.conf
     - contents: {{ name | yaml_dquote }}
