# 0ad.sh - 0 A.D. Alpha 26 (OpenGL through Zink): the Mediterranean Cove skirmish started from the
# command line with two Petra AIs (-autostart), shadows with PCF, water with reflections,
# refractions and real depth on; the camera stays where the game puts it at the start.
GAME_PKGS="0ad"
GAME_NOROOT=1      # it refuses to run as root: games.sh runs it as nobody then
GAME_RES=1280x720
GAME_START=150    # 0-74 menu and loading (~25 draws); the match from ~100, ~1,000 draws a frame
GAME_FRAMES=3
# a tier-3 frame's submission runs longer than the layer's default 20 s wait on lavapipe's two
# cores (the layer would take the device for hung and stop counts and positions)
GAME_ENV="LLCT_CAPTURE_WAIT_SECONDS=${LLCT_CAPTURE_WAIT_SECONDS:-120}"
game_setup() { # W H
	mkdir -p "$HOME/.config/0ad/config"
	cat >"$HOME/.config/0ad/config/local.cfg" <<CFG
windowed = true
xres = $1
yres = $2
vsync = false
nosound = true
shadows = true
shadowpcf = true
shadowquality = 0
watereffects = true
waterfancyeffects = true
waterrealdepth = true
waterrefraction = true
waterreflection = true
particles = true
fog = true
silhouettes = true
preferglsl = true
renderpath = "shader"
gui.session.timeelapsedcounter = false
userreport.url_upload = ""
CFG
}
# game_cmd W H: the command line, a word a line. The -conf settings win over the game's hardware
# detection, which turns shadows, water effects, GLSL and post-processing off on any renderer
# named like llvmpipe (Zink's name says "zink (llvmpipe ...)") and outranks local.cfg.
game_cmd() {
	printf '%s\n' /usr/games/0ad -autostart=skirmishes/mediterranean_cove_2p -autostart-ai=1:petra \
		-autostart-ai=2:petra -autostart-seed=1 -xres=$1 -yres=$2
	local k
	for k in shadows shadowpcf watereffects waterfancyeffects waterrealdepth waterrefraction \
		waterreflection watershadows preferglsl postproc smoothlos; do
		printf '%s\n' "-conf=$k:true"
	done
	printf '%s\n' -conf=renderpath:shader
}
