# minetest.sh - Minetest 5.6 with Minetest Game (OpenGL through Zink): shaders, dynamic shadows,
# waving leaves and water on; a singleplayer world of fixed seed and spawn point, time of day
# frozen, the player standing at the spawn point (--go: straight into the world).
GAME_PKGS="minetest"
GAME_RES=1280x720
GAME_START=300     # 0-24 the menu and loading (~30 draws); 50-149 map blocks meshed; ~400 a frame on
GAME_FRAMES=3
game_setup() { # W H
	mkdir -p "$HOME/.minetest/worlds/suite"
	cat >"$HOME/.minetest/minetest.conf" <<CONF
screen_w = $1
screen_h = $2
fullscreen = false
vsync = false
enable_sound = false
enable_shaders = true
enable_dynamic_shadows = true
shadow_levels = 3
enable_waving_water = true
enable_waving_leaves = true
enable_waving_plants = true
enable_bloom = true
viewing_range = 100
fixed_map_seed = 42
static_spawnpoint = 0,20,0
time_speed = 0
world_start_time = 12000
menu_last_game = minetest
creative_mode = true
enable_damage = false
CONF
	cat >"$HOME/.minetest/worlds/suite/world.mt" <<MT
gameid = minetest
backend = sqlite3
player_backend = sqlite3
auth_backend = sqlite3
MT
	printf 'seed = 42\n[end_of_params]\n' >"$HOME/.minetest/worlds/suite/map_meta.txt"
}
# game_cmd W H: the command line, a word a line
game_cmd() { printf '%s\n' /usr/games/minetest --go --world $HOME/.minetest/worlds/suite --name suite; }
