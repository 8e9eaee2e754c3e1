# supertuxkart.sh - SuperTuxKart 1.4 (OpenGL 3.3 through Zink): its deferred pipeline (G-buffer,
# dynamic lights, SSAO, shadow maps, bloom, glow, light shafts; specular IBL off: its importance-
# sampled prefilter at load kept lavapipe busy for over ten minutes) on the Lighthouse track, four AI
# karts racing in profile mode (--profile-time: every kart driven by the AI, nobody at the keys).
GAME_PKGS="supertuxkart"
GAME_RES=640x480   # lavapipe draws 720p too slowly for a suite run (docs/GAMES.md)
GAME_START=400     # a first guess, not yet counted from a kernel mix (docs/GAMES.md)
GAME_FRAMES=3
game_setup() { # W H: the config, graphics fixed; hats and ears off so the date changes nothing
	mkdir -p "$HOME/.config/supertuxkart/config-0.10"
	cat >"$HOME/.config/supertuxkart/config-0.10/config.xml" <<XML
<?xml version="1.0"?>
<stkconfig version="8" >
    <Audio sfx_on="false" music_on="false" />
    <Video real_width="$1" real_height="$2" width="$1" height="$2" fullscreen="false"
        max_fps="120" enable_texture_compression="false" enable_high_definition_textures="1"
        enable_glow="true" enable_bloom="true" enable_light_shaft="true"
        enable_dynamic_lights="true" enable_dof="false" render_driver="gl" />
    <GFX particles-effecs="2" christmas-mode="2" easter-ear-mode="2" animated-characters="true"
        geometry_level="0" anisotropic="4" swap-interval="0" motionblur_enabled="false"
        mlaa="false" ssao="true" light_scatter="true" shadows_resolution="512"
        Degraded_IBL="true" />
    <enable_internet value="0" />
</stkconfig>
XML
}
# game_cmd W H: the command line, a word a line
game_cmd() { printf '%s\n' /usr/games/supertuxkart --track=lighthouse --numkarts=4 --race-now --profile-time=600 --screensize=$1x$2; }
