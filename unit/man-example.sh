#!/bin/sh
# Extract the complete program from a man page's EXAMPLE section (from the
# line starting with "/* cc " to the closing "}") so that the build checks
# it still compiles.  usage: man-example.sh PAGE OUT.c
set -eu
sed -n '/^\/\* cc /,/^}$/p' "$1" | sed 's/\\e/\\/g; s/\\-/-/g' > "$2"
[ -s "$2" ]
