# openarena.sh - OpenArena 0.8.8 (ioquake3, OpenGL through Zink): the timedemo of the demo it
# ships (demo088-test1), which draws every recorded snapshot once whatever the frame rate, so the
# frames are the same on every run.
GAME_PKGS="openarena"
GAME_RES=1280x720
GAME_START=200    # frames 0-74 load the map; from 75 on the demo plays, ~300 draws a frame
GAME_FRAMES=3
game_setup() { # W H
	mkdir -p "$HOME/.openarena/baseoa"
	cat >"$HOME/.openarena/baseoa/autoexec.cfg" <<CFG
seta com_introplayed 1
seta r_mode -1
seta r_customwidth $1
seta r_customheight $2
seta r_fullscreen 0
seta r_swapInterval 0
seta r_picmip 0
seta r_dynamiclight 1
seta r_fastsky 0
seta cg_shadows 1
seta s_initsound 0
seta cl_allowDownload 0
CFG
}
# game_cmd W H: the command line, a word a line
game_cmd() { printf '%s\n' /usr/games/openarena +set com_hunkmegs 256 +set s_initsound 0 +set r_mode -1 +set r_customwidth $1 +set r_customheight $2 +set r_fullscreen 0 +set timedemo 1 +demo demo088-test1; }
