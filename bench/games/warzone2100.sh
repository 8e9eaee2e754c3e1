# warzone2100.sh - Warzone 2100 4.3 on its Vulkan backend (a Vulkan-native game: a frame is a
# swapchain present): a replay of the skirmish test it ships, "highground" (Sk-HighGround, two
# semperfi AIs), played back with --loadreplay, so every run shows the same match.
# The replay (data/warzone2100-highground.wzrp.xz, 50 KB) was recorded on 2026-11-27 by
#   warzone2100 --gfxbackend=vulkan --skirmish=highground.json --autogame --window
# (Debian's 4.3.3-3; a replay names the data's hashes, so it plays on that data only). Played
# back, game time follows the clock, as in play.
GAME_PKGS="warzone2100 xz-utils"
GAME_API=vk
GAME_RES=1280x720
GAME_START=40    # 0-29 menu and loading; from ~30 the match, ~115-130 draws a frame, 2 s a frame at 720p
GAME_FRAMES=3
game_setup() { # W H
	mkdir -p "$HOME/wz2100/replay/skirmish"
	xz -dc "$HERE/games/data/warzone2100-highground.wzrp.xz" >"$HOME/wz2100/replay/skirmish/highground.wzrp"
	cat >"$HOME/wz2100/config" <<CFG
[general]
gfxbackend=vulkan
width=$1
height=$2
fullscreen=0
vsync=0
sound=0
music_enabled=false
shadows=1
texturesize=2048
texturecompression=1
antialiasing=0
showfps=0
upnp=0
shake=0
CFG
}
# game_cmd W H: the command line, a word a line
game_cmd() {
	printf '%s\n' /usr/games/warzone2100 --gfxbackend=vulkan --loadreplay=highground.wzrp --window \
		--resolution="$1x$2" --nosound --shadows --configdir="$HOME/wz2100"
}
