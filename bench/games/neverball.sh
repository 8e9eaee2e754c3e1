# neverball.sh - Neverball 1.6 (OpenGL through Zink): the level "Bumper" loaded straight from the
# command line (--level), reflections and shadows on; nobody tilts the floor, so the ball sits at
# its start while the level, its coins and the animated background are drawn.
GAME_PKGS="neverball"
GAME_RES=1280x720
GAME_START=300   # frames 0-149 upload and load (no draws); ~760 draws a frame from 150 on
GAME_FRAMES=3
game_setup() { # W H
	mkdir -p "$HOME/.neverball"
	cat >"$HOME/.neverball/neverballrc" <<RC
fullscreen 0
width $1
height $2
vsync 0
reflection 1
background 1
shadow 2
textures 1
geometry 1
audio_buff 2048
sound_volume 0
music_volume 0
RC
}
# game_cmd W H: the command line, a word a line
game_cmd() { printf '%s\n' /usr/games/neverball --level map-easy/bumper.sol; }
