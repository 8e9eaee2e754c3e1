# supertuxkart.sh - SuperTuxKart 1.4 (OpenGL 3.3 through Zink): its deferred pipeline (G-buffer,
# dynamic lights, SSAO, shadow maps, bloom, glow, light shafts) on the Lighthouse track, four AI
# karts racing in profile mode (--profile-time: every kart driven by the AI, nobody at the keys).
# Anisotropic filtering is off: lavapipe filters an anisotropic sample with a loop over the texels
# of its footprint, and with it the game's load-time specular prefilter (Skybox::
# generateSpecularCubemap: 6 faces x 8 mip levels, 1,024 cube-map samples a texel) kept lavapipe
# in that one loop for over 25 minutes before the first race frame, and race frames stalled for
# 17-170 s (once for over 10 minutes) at random. With it off the whole run to submission 125 takes
# about 17 s here (docs/GAMES.md, "SuperTuxKart: what stopped it"). llctrace's texture footprints
# do not model anisotropy, so the traces' TEX traffic is the same either way. Specular IBL is on
# (Degraded_IBL="false"): the environment-map pass reads the G-buffer and the prefiltered probe.
GAME_PKGS="supertuxkart"
GAME_RES=640x480   # lavapipe draws 720p too slowly for a suite run (docs/GAMES.md)
GAME_START=120     # submissions: the race runs from about 60 (docs/GAMES.md)
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
        geometry_level="0" anisotropic="0" swap-interval="0" motionblur_enabled="false"
        mlaa="false" ssao="true" light_scatter="true" shadows_resolution="512"
        Degraded_IBL="false" />
    <enable_internet value="0" />
</stkconfig>
XML
}
# game_cmd W H: the command line, a word a line
game_cmd() { printf '%s\n' /usr/games/supertuxkart --track=lighthouse --numkarts=4 --race-now --profile-time=600 --screensize=$1x$2; }
