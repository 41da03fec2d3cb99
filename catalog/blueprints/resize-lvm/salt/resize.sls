{#- Grow a logical volume and the filesystem on it in one step (lvextend --resizefs). A size
    starting with + grows by that much; otherwise it is the new total size. lvextend refuses
    to shrink, so a mistyped size cannot destroy data. #}
{%- set lv_name = salt['pillar.get']('lv_name') %}
{%- set vg_name = salt['pillar.get']('vg_name', 'vg0') %}
{%- set size = salt['pillar.get']('size') | string %}
{%- set device = '/dev/' ~ vg_name ~ '/' ~ lv_name %}

resize-lvm-volume-exists:
  cmd.run:
    - name: {{ ('lvs ' ~ (device | quote)) | yaml_dquote }}

resize-lvm-extend:
  cmd.run:
    - name: {{ ('lvextend --resizefs -L ' ~ (size | quote) ~ ' ' ~ (device | quote)) | yaml_dquote }}
    - require:
      - cmd: resize-lvm-volume-exists
