# redeclipse.sh - Red Eclipse 1.6 (Tesseract-derived deferred renderer, OpenGL through Zink): an
# offline match on the map "bath" with bots, the player spectating (the camera follows the
# match; nobody at the keys).
GAME_PKGS="redeclipse"
GAME_RES=1280x720
GAME_START=300    # 0-149 menu, map load and the local server's hand-over; the match from ~150, ~360 draws a frame
GAME_FRAMES=3
game_setup() { # W H
	mkdir -p "$HOME/.redeclipse"
}
# game_cmd W H: the command line, a word a line
game_cmd() { printf '%s\n' /usr/games/redeclipse "-h$HOME/.redeclipse" "-dw$1" "-dh$2" -df0 \
	"-xspectator 1; map bath"; }
