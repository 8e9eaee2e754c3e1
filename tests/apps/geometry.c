/* geometry.c - a headless Vulkan program for capture tier 2's tests: each frame (one submit)
 * draws primitives every way Vulkan makes them, depth-tested, so the layer's rasterizer can be
 * checked against the driver's precise occlusion counts and its depth buffer:
 *   pass A, 256x256 RGBA8 + D32 (cleared to 1, LESS, stored and read back):
 *     a background quad (indexed list), a sloped triangle strip, an indexed strip with
 *     primitive restart drawn in 2 instances, a triangle fan, a back face culled away, a
 *     triangle crossing the near plane, a perspective quad (w != 1) drawn twice (the second
 *     time level with itself: LESS fails), two indirect triangles, an indexed count-indirect
 *     triangle, a scissored draw, a quad level with the background pulled in front by depth
 *     bias, a multi-draw; then a second pass over the same targets (load, store) whose only
 *     draw is in a secondary command buffer;
 *   pass B, 128x128 4x multisampled with depth/stencil: a quad that writes stencil 1 (dynamic
 *     reference), then a quad drawn only where the stencil equals 1 (dynamic compare op and
 *     cull mode), resolved;
 *   the color targets and pass A's depth copied to host-visible buffers.
 * Prints a checksum of the colors and depth; with DEPTH_FILE, writes frame 0's pass-A depth
 * there (256x256 32-bit floats, rows top to bottom).
 *
 * usage: geometry [FRAMES [DEPTH_FILE]]   (default 2 frames)
 */
#include "vkapp.h"

#include "color.frag.h"
#include "pos4.vert.h"

#define W 256
#define H 256
#define MW 128

static VkRenderPass pass(VkFormat color, VkFormat depth, VkSampleCountFlagBits samples, int resolve,
			 int load)
{
	VkAttachmentLoadOp lo = load ? VK_ATTACHMENT_LOAD_OP_LOAD : VK_ATTACHMENT_LOAD_OP_CLEAR;
	VkImageLayout in = load ? VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL : VK_IMAGE_LAYOUT_UNDEFINED;
	VkAttachmentDescription a[3] = {
	    {0, color, samples, lo,
	     resolve ? VK_ATTACHMENT_STORE_OP_DONT_CARE : VK_ATTACHMENT_STORE_OP_STORE,
	     VK_ATTACHMENT_LOAD_OP_DONT_CARE, VK_ATTACHMENT_STORE_OP_DONT_CARE, in,
	     VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL},
	    {0, depth, samples, lo,
	     resolve ? VK_ATTACHMENT_STORE_OP_DONT_CARE : VK_ATTACHMENT_STORE_OP_STORE,
	     VK_ATTACHMENT_LOAD_OP_CLEAR, VK_ATTACHMENT_STORE_OP_DONT_CARE, in,
	     VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL},
	    {0, color, VK_SAMPLE_COUNT_1_BIT, VK_ATTACHMENT_LOAD_OP_DONT_CARE,
	     VK_ATTACHMENT_STORE_OP_STORE, VK_ATTACHMENT_LOAD_OP_DONT_CARE,
	     VK_ATTACHMENT_STORE_OP_DONT_CARE, VK_IMAGE_LAYOUT_UNDEFINED,
	     VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL}};
	VkAttachmentReference cref = {0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
	VkAttachmentReference dref = {1, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
	VkAttachmentReference rref = {2, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
	VkSubpassDescription sub = {0,     VK_PIPELINE_BIND_POINT_GRAPHICS, 0,     NULL, 1,
				    &cref, resolve ? &rref : NULL,          &dref, 0,    NULL};
	VkSubpassDependency deps[2] = {
	    {VK_SUBPASS_EXTERNAL, 0, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT,
	     VK_PIPELINE_STAGE_ALL_GRAPHICS_BIT, VK_ACCESS_MEMORY_WRITE_BIT,
	     VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT, 0},
	    {0, VK_SUBPASS_EXTERNAL, VK_PIPELINE_STAGE_ALL_GRAPHICS_BIT,
	     VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_ACCESS_MEMORY_WRITE_BIT,
	     VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT, 0}};
	VkRenderPassCreateInfo ci = {VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO,
				     NULL,
				     0,
				     resolve ? 3 : 2,
				     a,
				     1,
				     &sub,
				     2,
				     deps};
	VkRenderPass rp;
	CHECK(vkCreateRenderPass(dev, &ci, NULL, &rp));
	return rp;
}

/* What differs between this program's pipelines. */
struct pipe_opts {
	VkRenderPass rp;
	uint32_t w, h;
	VkSampleCountFlagBits samples;
	VkPrimitiveTopology topology;
	int restart;
	VkCullModeFlags cull;
	VkCompareOp depth_op;
	int bias;    /* constant depth bias pulling towards the viewer */
	int stencil; /* stencil test, its ops and reference dynamic */
	int dyn_scissor;
	int dyn_cull; /* cull mode and depth compare op from commands */
};

static VkPipelineLayout layout;
static VkShaderModule vs, fs;

static VkPipeline pipeline(const struct pipe_opts *o)
{
	VkPipelineShaderStageCreateInfo st[2] = {
	    {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, NULL, 0,
	     VK_SHADER_STAGE_VERTEX_BIT, vs, "main", NULL},
	    {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, NULL, 0,
	     VK_SHADER_STAGE_FRAGMENT_BIT, fs, "main", NULL}};
	VkVertexInputBindingDescription b = {0, 16, VK_VERTEX_INPUT_RATE_VERTEX};
	VkVertexInputAttributeDescription a = {0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0};
	VkPipelineVertexInputStateCreateInfo vi = {
	    VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO, NULL, 0, 1, &b, 1, &a};
	VkPipelineInputAssemblyStateCreateInfo ia = {
	    VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO, NULL, 0, o->topology,
	    (VkBool32)o->restart};
	VkViewport vp = {0, 0, (float)o->w, (float)o->h, 0, 1};
	VkRect2D sc = {{0, 0}, {o->w, o->h}};
	VkPipelineViewportStateCreateInfo vps = {
	    VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO, NULL, 0, 1, &vp, 1, &sc};
	VkPipelineRasterizationStateCreateInfo rs = {
	    VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
	rs.polygonMode = VK_POLYGON_MODE_FILL;
	rs.cullMode = o->cull;
	rs.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
	rs.lineWidth = 1;
	rs.depthBiasEnable = (VkBool32)o->bias;
	rs.depthBiasConstantFactor = -4096.0f;
	VkPipelineMultisampleStateCreateInfo ms = {
	    VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
	ms.rasterizationSamples = o->samples;
	VkPipelineDepthStencilStateCreateInfo ds = {
	    VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
	ds.depthTestEnable = VK_TRUE;
	ds.depthWriteEnable = VK_TRUE;
	ds.depthCompareOp = o->depth_op;
	ds.stencilTestEnable = (VkBool32)o->stencil;
	ds.front = ds.back = (VkStencilOpState){VK_STENCIL_OP_KEEP,
						VK_STENCIL_OP_REPLACE,
						VK_STENCIL_OP_KEEP,
						VK_COMPARE_OP_ALWAYS,
						0xff,
						0xff,
						0};
	VkPipelineColorBlendAttachmentState cba = {0};
	cba.colorWriteMask = 0xf;
	VkPipelineColorBlendStateCreateInfo cb = {
	    VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO, NULL, 0, 0, 0, 1, &cba};
	VkDynamicState dyn[8];
	VkPipelineDynamicStateCreateInfo dsi = {
	    VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO, NULL, 0, 0, dyn};
	if (o->dyn_scissor)
		dyn[dsi.dynamicStateCount++] = VK_DYNAMIC_STATE_SCISSOR;
	if (o->stencil) {
		dyn[dsi.dynamicStateCount++] = VK_DYNAMIC_STATE_STENCIL_REFERENCE;
		dyn[dsi.dynamicStateCount++] = VK_DYNAMIC_STATE_STENCIL_OP;
	}
	if (o->dyn_cull) {
		dyn[dsi.dynamicStateCount++] = VK_DYNAMIC_STATE_CULL_MODE;
		dyn[dsi.dynamicStateCount++] = VK_DYNAMIC_STATE_DEPTH_COMPARE_OP;
	}
	VkGraphicsPipelineCreateInfo ci = {VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
	ci.stageCount = 2;
	ci.pStages = st;
	ci.pVertexInputState = &vi;
	ci.pInputAssemblyState = &ia;
	ci.pViewportState = &vps;
	ci.pRasterizationState = &rs;
	ci.pMultisampleState = &ms;
	ci.pDepthStencilState = &ds;
	ci.pColorBlendState = &cb;
	ci.pDynamicState = dsi.dynamicStateCount ? &dsi : NULL;
	ci.layout = layout;
	ci.renderPass = o->rp;
	VkPipeline p;
	CHECK(vkCreateGraphicsPipelines(dev, VK_NULL_HANDLE, 1, &ci, NULL, &p));
	return p;
}

/* Vertices (clip space, x y z w) of everything pass A draws, in draw order. */
static const float verts[][4] = {
    /* 0: background quad at depth 0.9 (indexed list, 4 vertices) */
    {-1, -1, 0.9f, 1},
    {1, -1, 0.9f, 1},
    {1, 1, 0.9f, 1},
    {-1, 1, 0.9f, 1},
    /* 4: strip of 6 vertices, depth from 0.2 (left) to 0.8 (right) */
    {-0.9f, -0.9f, 0.2f, 1},
    {-0.9f, -0.5f, 0.2f, 1},
    {-0.4f, -0.9f, 0.5f, 1},
    {-0.4f, -0.5f, 0.5f, 1},
    {0.1f, -0.9f, 0.8f, 1},
    {0.1f, -0.5f, 0.8f, 1},
    /* 10: indexed strip with restart (indices below), depth 0.4 */
    {-0.95f, -0.3f, 0.4f, 1},
    {-0.95f, 0.0f, 0.4f, 1},
    {-0.75f, -0.3f, 0.4f, 1},
    {-0.75f, 0.0f, 0.4f, 1},
    {-0.6f, -0.3f, 0.4f, 1},
    {-0.6f, -0.05f, 0.4f, 1},
    /* 16: fan around (0.5, 0.5), depth 0.3 */
    {0.5f, 0.5f, 0.3f, 1},
    {0.9f, 0.5f, 0.3f, 1},
    {0.78f, 0.78f, 0.3f, 1},
    {0.5f, 0.9f, 0.3f, 1},
    {0.22f, 0.78f, 0.3f, 1},
    {0.1f, 0.5f, 0.3f, 1},
    /* 22: a back face (clockwise in framebuffer space: culled) */
    {-0.2f, 0.2f, 0.1f, 1},
    {0.2f, 0.2f, 0.1f, 1},
    {0.0f, 0.6f, 0.1f, 1},
    /* 25: crossing the near plane: z from -0.5 to 0.5 */
    {0.2f, -0.9f, -0.5f, 1},
    {0.9f, -0.9f, 0.5f, 1},
    {0.55f, -0.2f, 0.5f, 1},
    /* 28: a perspective quad (w 1 to 3: the far edge is smaller), depth 0.2 * w */
    {-0.9f, 0.3f, 0.2f, 1},
    {-0.1f, 0.3f, 0.2f, 1},
    {-0.3f, 2.4f, 0.6f, 3},
    {-2.7f, 2.4f, 0.6f, 3},
    /* 32: two triangles drawn indirectly, depth 0.35 */
    {0.15f, 0.1f, 0.35f, 1},
    {0.45f, 0.1f, 0.35f, 1},
    {0.3f, 0.4f, 0.35f, 1},
    {0.5f, 0.1f, 0.35f, 1},
    {0.8f, 0.1f, 0.35f, 1},
    {0.65f, 0.4f, 0.35f, 1},
    /* 38: one triangle by count-indirect, depth 0.25 */
    {0.6f, -0.9f, 0.25f, 1},
    {0.95f, -0.9f, 0.25f, 1},
    {0.95f, -0.55f, 0.25f, 1},
    /* 41: full-screen quad at 0.05, scissored to a 40x24 rectangle */
    {-1, -1, 0.05f, 1},
    {1, -1, 0.05f, 1},
    {1, 1, 0.05f, 1},
    {-1, -1, 0.05f, 1},
    {1, 1, 0.05f, 1},
    {-1, 1, 0.05f, 1},
    /* 47: a quad level with the background, in front by depth bias */
    {-0.3f, 0.7f, 0.9f, 1},
    {0.3f, 0.7f, 0.9f, 1},
    {0.3f, 0.95f, 0.9f, 1},
    {-0.3f, 0.7f, 0.9f, 1},
    {0.3f, 0.95f, 0.9f, 1},
    {-0.3f, 0.95f, 0.9f, 1},
    /* 53: two small triangles of one multi-draw, depth 0.15 and 0.95 (behind: fails) */
    {-0.05f, -0.45f, 0.15f, 1},
    {0.1f, -0.45f, 0.15f, 1},
    {0.02f, -0.3f, 0.15f, 1},
    {-0.5f, 0.4f, 0.95f, 1},
    {-0.3f, 0.4f, 0.95f, 1},
    {-0.4f, 0.55f, 0.95f, 1},
    /* 59: the secondary command buffer's quad, depth 0.6 */
    {-0.2f, -0.2f, 0.6f, 1},
    {0.4f, -0.2f, 0.6f, 1},
    {0.4f, 0.25f, 0.6f, 1},
    {-0.2f, -0.2f, 0.6f, 1},
    {0.4f, 0.25f, 0.6f, 1},
    {-0.2f, 0.25f, 0.6f, 1},
    /* 65: pass B, stencil-writing quad and the stencil-tested one (depth 0.5, 0.4) */
    {-0.8f, -0.8f, 0.5f, 1},
    {0.3f, -0.8f, 0.5f, 1},
    {0.3f, 0.3f, 0.5f, 1},
    {-0.8f, -0.8f, 0.5f, 1},
    {0.3f, 0.3f, 0.5f, 1},
    {-0.8f, 0.3f, 0.5f, 1},
    {-0.2f, -0.3f, 0.4f, 1},
    {0.9f, -0.3f, 0.4f, 1},
    {0.9f, 0.85f, 0.4f, 1},
    {-0.2f, -0.3f, 0.4f, 1},
    {0.9f, 0.85f, 0.4f, 1},
    {-0.2f, 0.85f, 0.4f, 1},
};
static const uint16_t indices[] = {0,  1,  2,  0,  2,      3,              /* background */
				   10, 11, 12, 13, 0xffff, 12, 13, 14, 15, /* restart */
				   38, 39, 40};

static void color(VkCommandBuffer cb, float r, float g, float b)
{
	float c[4] = {r, g, b, 1};
	vkCmdPushConstants(cb, layout, VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof(c), c);
}

/* Long because a test program's main is its scenario: one Vulkan call after another in the
 * order they run, the objects each makes used by the next; split, they would travel through a
 * dozen parameters for no reader's gain. */
int main(int argc, char **argv)
{
	int frames = argc > 1 ? atoi(argv[1]) : 2;
	const char *depth_file = argc > 2 ? argv[2] : NULL;
	VkPhysicalDeviceMultiDrawFeaturesEXT md = {
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTI_DRAW_FEATURES_EXT, NULL, VK_TRUE};
	VkPhysicalDeviceExtendedDynamicStateFeaturesEXT eds = {
	    VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_FEATURES_EXT, &md, VK_TRUE};
	app_open("geometry", 0,
		 "VK_EXT_multi_draw,VK_EXT_extended_dynamic_state,VK_KHR_draw_indirect_count",
		 &eds);
	PFN_vkCmdDrawMultiEXT draw_multi =
	    (PFN_vkCmdDrawMultiEXT)vkGetDeviceProcAddr(dev, "vkCmdDrawMultiEXT");
	PFN_vkCmdDrawIndexedIndirectCountKHR draw_count =
	    (PFN_vkCmdDrawIndexedIndirectCountKHR)vkGetDeviceProcAddr(
		dev, "vkCmdDrawIndexedIndirectCountKHR");
	PFN_vkCmdSetCullModeEXT set_cull =
	    (PFN_vkCmdSetCullModeEXT)vkGetDeviceProcAddr(dev, "vkCmdSetCullModeEXT");
	PFN_vkCmdSetDepthCompareOpEXT set_compare =
	    (PFN_vkCmdSetDepthCompareOpEXT)vkGetDeviceProcAddr(dev, "vkCmdSetDepthCompareOpEXT");
	PFN_vkCmdSetStencilOpEXT set_stencil_op =
	    (PFN_vkCmdSetStencilOpEXT)vkGetDeviceProcAddr(dev, "vkCmdSetStencilOpEXT");
	if (!draw_multi || !draw_count || !set_cull || !set_compare || !set_stencil_op) {
		fprintf(stderr, "geometry: the device lacks a command this test needs\n");
		return 1;
	}
	/* targets */
	VkDeviceMemory m[8];
	VkFormat cf = VK_FORMAT_R8G8B8A8_UNORM, df = VK_FORMAT_D32_SFLOAT;
	VkFormat dsf = VK_FORMAT_D32_SFLOAT_S8_UINT;
	VkFormatProperties fp;
	vkGetPhysicalDeviceFormatProperties(pd, dsf, &fp);
	if (!(fp.optimalTilingFeatures & VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT))
		dsf = VK_FORMAT_D24_UNORM_S8_UINT;
	VkImageUsageFlags cu =
	    VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
	VkImageUsageFlags du =
	    VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
	VkImage ca = app_image(cf, W, H, VK_SAMPLE_COUNT_1_BIT, cu, &m[0]);
	VkImage da = app_image(df, W, H, VK_SAMPLE_COUNT_1_BIT, du, &m[1]);
	VkImage cbm = app_image(cf, MW, MW, VK_SAMPLE_COUNT_4_BIT, cu, &m[2]);
	VkImage dbm = app_image(dsf, MW, MW, VK_SAMPLE_COUNT_4_BIT, du, &m[3]);
	VkImage rb = app_image(cf, MW, MW, VK_SAMPLE_COUNT_1_BIT, cu, &m[4]);
	VkImageView va[2] = {app_view(ca, cf, VK_IMAGE_ASPECT_COLOR_BIT),
			     app_view(da, df, VK_IMAGE_ASPECT_DEPTH_BIT)};
	VkImageView vb[3] = {
	    app_view(cbm, cf, VK_IMAGE_ASPECT_COLOR_BIT),
	    app_view(dbm, dsf, VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT),
	    app_view(rb, cf, VK_IMAGE_ASPECT_COLOR_BIT)};
	VkRenderPass rpa = pass(cf, df, VK_SAMPLE_COUNT_1_BIT, 0, 0);
	VkRenderPass rpa2 = pass(cf, df, VK_SAMPLE_COUNT_1_BIT, 0, 1); /* loads what pass A drew */
	VkRenderPass rpb = pass(cf, dsf, VK_SAMPLE_COUNT_4_BIT, 1, 0);
	VkFramebuffer fba, fbb;
	VkFramebufferCreateInfo fci = {
	    VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO, NULL, 0, rpa, 2, va, W, H, 1};
	CHECK(vkCreateFramebuffer(dev, &fci, NULL, &fba));
	fci.renderPass = rpb, fci.attachmentCount = 3, fci.pAttachments = vb;
	fci.width = fci.height = MW;
	CHECK(vkCreateFramebuffer(dev, &fci, NULL, &fbb));
	/* pipelines */
	VkPushConstantRange pcr = {VK_SHADER_STAGE_FRAGMENT_BIT, 0, 16};
	VkPipelineLayoutCreateInfo lci = {
	    VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, NULL, 0, 0, NULL, 1, &pcr};
	CHECK(vkCreatePipelineLayout(dev, &lci, NULL, &layout));
	vs = app_shader(spv_pos4_vert, sizeof(spv_pos4_vert));
	fs = app_shader(spv_color_frag, sizeof(spv_color_frag));
	struct pipe_opts o = {rpa,
			      W,
			      H,
			      VK_SAMPLE_COUNT_1_BIT,
			      VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
			      0,
			      VK_CULL_MODE_NONE,
			      VK_COMPARE_OP_LESS,
			      0,
			      0,
			      0,
			      0};
	VkPipeline list = pipeline(&o);
	o.cull = VK_CULL_MODE_BACK_BIT;
	VkPipeline culled = pipeline(&o);
	o.cull = VK_CULL_MODE_NONE;
	o.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
	VkPipeline strip = pipeline(&o);
	o.restart = 1;
	VkPipeline restart = pipeline(&o);
	o.restart = 0;
	o.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN;
	VkPipeline fan = pipeline(&o);
	o.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
	o.dyn_scissor = 1;
	VkPipeline scissored = pipeline(&o);
	o.dyn_scissor = 0;
	o.bias = 1;
	VkPipeline biased = pipeline(&o);
	o.bias = 0;
	struct pipe_opts ob = {rpb,
			       MW,
			       MW,
			       VK_SAMPLE_COUNT_4_BIT,
			       VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST,
			       0,
			       VK_CULL_MODE_NONE,
			       VK_COMPARE_OP_ALWAYS,
			       0,
			       1,
			       0,
			       1};
	VkPipeline msaa = pipeline(&ob);
	/* buffers: vertices, indices, indirect commands and count, read-backs */
	VkDeviceMemory vm, im, xm, rm[3];
	VkBuffer vbuf = app_buffer(sizeof(verts), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, APP_HOST, &vm);
	VkBuffer ibuf =
	    app_buffer(sizeof(indices), VK_BUFFER_USAGE_INDEX_BUFFER_BIT, APP_HOST, &im);
	VkBuffer xbuf = app_buffer(64, VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, APP_HOST, &xm);
	VkBuffer rbuf[3] = {
	    app_buffer(W * H * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, APP_HOST, &rm[0]),
	    app_buffer(W * H * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, APP_HOST, &rm[1]),
	    app_buffer(MW * MW * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, APP_HOST, &rm[2])};
	void *p;
	CHECK(vkMapMemory(dev, vm, 0, sizeof(verts), 0, &p));
	memcpy(p, verts, sizeof(verts));
	vkUnmapMemory(dev, vm);
	CHECK(vkMapMemory(dev, im, 0, sizeof(indices), 0, &p));
	memcpy(p, indices, sizeof(indices));
	vkUnmapMemory(dev, im);
	CHECK(vkMapMemory(dev, xm, 0, 64, 0, &p));
	uint32_t *x = p; /* VkDrawIndirectCommand; VkDrawIndexedIndirectCommand; a count */
	x[0] = 6, x[1] = 1, x[2] = 32, x[3] = 0;
	x[4] = 3, x[5] = 1, x[6] = 15, x[7] = 0, x[8] = 0;
	x[9] = 1;
	vkUnmapMemory(dev, xm);
	VkCommandPool pool = app_command_pool();
	VkCommandBuffer cb = app_command_buffer(pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY);
	VkCommandBuffer sec = app_command_buffer(pool, VK_COMMAND_BUFFER_LEVEL_SECONDARY);
	VkFence fence = app_fence();
	VkDeviceSize zero = 0;
	uint64_t sum = 0;
	for (int f = 0; f < frames; f++) {
		/* the secondary: a quad inside pass A */
		VkCommandBufferInheritanceInfo inh = {
		    VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO, NULL, rpa, 0, fba};
		VkCommandBufferBeginInfo sbi = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, NULL,
						VK_COMMAND_BUFFER_USAGE_RENDER_PASS_CONTINUE_BIT,
						&inh};
		CHECK(vkBeginCommandBuffer(sec, &sbi));
		vkCmdBindPipeline(sec, VK_PIPELINE_BIND_POINT_GRAPHICS, list);
		vkCmdBindVertexBuffers(sec, 0, 1, &vbuf, &zero);
		color(sec, 0.2f, 0.2f, 0.9f);
		vkCmdDraw(sec, 6, 1, 59, 0);
		CHECK(vkEndCommandBuffer(sec));

		VkCommandBufferBeginInfo bi = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
		CHECK(vkBeginCommandBuffer(cb, &bi));
		VkClearValue clr[3] = {{.color = {{0, 0, 0, 1}}}, {.depthStencil = {1.0f, 0}}};
		VkRenderPassBeginInfo rbi = {VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
					     NULL,
					     rpa,
					     fba,
					     {{0, 0}, {W, H}},
					     2,
					     clr};
		vkCmdBeginRenderPass(cb, &rbi, VK_SUBPASS_CONTENTS_INLINE);
		vkCmdBindVertexBuffers(cb, 0, 1, &vbuf, &zero);
		vkCmdBindIndexBuffer(cb, ibuf, 0, VK_INDEX_TYPE_UINT16);
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, list);
		color(cb, 0.1f, 0.1f, 0.1f);
		vkCmdDrawIndexed(cb, 6, 1, 0, 0, 0); /* background */
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, strip);
		color(cb, 1, 0, 0);
		vkCmdDraw(cb, 6, 1, 4, 0); /* sloped strip */
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, restart);
		color(cb, 0, 1, 0);
		vkCmdDrawIndexed(cb, 9, 2, 6, 0, 0); /* strip with restart, 2 instances */
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, fan);
		color(cb, 0, 0, 1);
		vkCmdDraw(cb, 6, 1, 16, 0); /* fan */
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, culled);
		color(cb, 1, 1, 0);
		vkCmdDraw(cb, 3, 1, 22, 0); /* back face, culled */
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, list);
		color(cb, 1, 0, 1);
		vkCmdDraw(cb, 3, 1, 25, 0); /* crossing the near plane */
		color(cb, 0, 1, 1);
		vkCmdDraw(cb, 3, 1, 28, 0); /* perspective quad: two triangles */
		vkCmdDraw(cb, 3, 1, 28, 0); /* (the same again: equal depth fails LESS) */
		color(cb, 0.5f, 0.5f, 0);
		vkCmdDrawIndirect(cb, xbuf, 0, 1, 16); /* two triangles */
		color(cb, 0, 0.5f, 0.5f);
		draw_count(cb, xbuf, 16, xbuf, 36, 1, 20); /* one triangle */
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, scissored);
		VkRect2D sc = {{100, 30}, {40, 24}};
		vkCmdSetScissor(cb, 0, 1, &sc);
		color(cb, 1, 1, 1);
		vkCmdDraw(cb, 6, 1, 41, 0);
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, biased);
		color(cb, 0.5f, 0, 0.5f);
		vkCmdDraw(cb, 6, 1, 47, 0);
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, list);
		VkMultiDrawInfoEXT mdi[2] = {{53, 3}, {56, 3}};
		color(cb, 0.9f, 0.6f, 0.1f);
		draw_multi(cb, 2, mdi, 1, 0, sizeof(mdi[0]));
		vkCmdEndRenderPass(cb);
		rbi.renderPass = rpa2; /* the secondary draws in a pass of its own (load, store) */
		vkCmdBeginRenderPass(cb, &rbi, VK_SUBPASS_CONTENTS_SECONDARY_COMMAND_BUFFERS);
		vkCmdExecuteCommands(cb, 1, &sec);
		vkCmdEndRenderPass(cb);
		/* pass B: stencil, 4x */
		VkClearValue clrb[3] = {{.color = {{0, 0, 0, 1}}}, {.depthStencil = {1.0f, 0}}};
		VkRenderPassBeginInfo rbb = {VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO,
					     NULL,
					     rpb,
					     fbb,
					     {{0, 0}, {MW, MW}},
					     3,
					     clrb};
		vkCmdBeginRenderPass(cb, &rbb, VK_SUBPASS_CONTENTS_INLINE);
		vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, msaa);
		vkCmdBindVertexBuffers(cb, 0, 1, &vbuf, &zero);
		set_cull(cb, VK_CULL_MODE_NONE);
		set_compare(cb, VK_COMPARE_OP_ALWAYS);
		set_stencil_op(cb, VK_STENCIL_FACE_FRONT_AND_BACK, VK_STENCIL_OP_KEEP,
			       VK_STENCIL_OP_REPLACE, VK_STENCIL_OP_KEEP, VK_COMPARE_OP_ALWAYS);
		vkCmdSetStencilReference(cb, VK_STENCIL_FACE_FRONT_AND_BACK, 1);
		color(cb, 1, 0.5f, 0);
		vkCmdDraw(cb, 6, 1, 65, 0);
		set_compare(cb, VK_COMPARE_OP_LESS);
		set_cull(cb, VK_CULL_MODE_FRONT_BIT); /* its triangles are back faces: kept */
		set_stencil_op(cb, VK_STENCIL_FACE_FRONT_AND_BACK, VK_STENCIL_OP_KEEP,
			       VK_STENCIL_OP_INCREMENT_AND_CLAMP, VK_STENCIL_OP_KEEP,
			       VK_COMPARE_OP_EQUAL);
		color(cb, 0, 0.5f, 1);
		vkCmdDraw(cb, 6, 1, 71, 0);
		vkCmdEndRenderPass(cb);
		/* read-backs: pass A's color and depth, pass B's resolved color */
		VkBufferImageCopy bc = {
		    0, 0, 0, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1}, {0, 0, 0}, {W, H, 1}};
		vkCmdCopyImageToBuffer(cb, ca, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, rbuf[0], 1,
				       &bc);
		bc.imageSubresource.aspectMask = VK_IMAGE_ASPECT_DEPTH_BIT;
		vkCmdCopyImageToBuffer(cb, da, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, rbuf[1], 1,
				       &bc);
		bc.imageSubresource.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
		bc.imageExtent = (VkExtent3D){MW, MW, 1};
		vkCmdCopyImageToBuffer(cb, rb, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, rbuf[2], 1,
				       &bc);
		CHECK(vkEndCommandBuffer(cb));
		app_submit_wait(cb, fence);
		sum = app_checksum(sum, rm[0], W * H);
		sum = app_checksum(sum, rm[1], W * H);
		sum = app_checksum(sum, rm[2], MW * MW);
		if (f == 0 && depth_file) {
			FILE *out = fopen(depth_file, "wb");
			CHECK(vkMapMemory(dev, rm[1], 0, W * H * 4, 0, &p));
			if (!out || fwrite(p, 4, W * H, out) != W * H || fclose(out)) {
				fprintf(stderr, "geometry: cannot write '%s'\n", depth_file);
				return 1;
			}
			vkUnmapMemory(dev, rm[1]);
		}
	}
	printf("checksum %016llx\n", (unsigned long long)sum);
	vkDeviceWaitIdle(dev);
	vkDestroyFence(dev, fence, NULL);
	vkDestroyCommandPool(dev, pool, NULL);
	VkPipeline ps[] = {list, culled, strip, restart, fan, scissored, biased, msaa};
	for (size_t i = 0; i < sizeof(ps) / sizeof(ps[0]); i++)
		vkDestroyPipeline(dev, ps[i], NULL);
	vkDestroyShaderModule(dev, vs, NULL);
	vkDestroyShaderModule(dev, fs, NULL);
	vkDestroyPipelineLayout(dev, layout, NULL);
	VkBuffer bs[] = {vbuf, ibuf, xbuf, rbuf[0], rbuf[1], rbuf[2]};
	VkDeviceMemory bm[] = {vm, im, xm, rm[0], rm[1], rm[2]};
	for (size_t i = 0; i < sizeof(bs) / sizeof(bs[0]); i++) {
		vkDestroyBuffer(dev, bs[i], NULL);
		vkFreeMemory(dev, bm[i], NULL);
	}
	vkDestroyFramebuffer(dev, fba, NULL);
	vkDestroyFramebuffer(dev, fbb, NULL);
	vkDestroyRenderPass(dev, rpa, NULL);
	vkDestroyRenderPass(dev, rpa2, NULL);
	vkDestroyRenderPass(dev, rpb, NULL);
	for (int i = 0; i < 2; i++)
		vkDestroyImageView(dev, va[i], NULL);
	for (int i = 0; i < 3; i++)
		vkDestroyImageView(dev, vb[i], NULL);
	VkImage imgs[] = {ca, da, cbm, dbm, rb};
	for (int i = 0; i < 5; i++) {
		vkDestroyImage(dev, imgs[i], NULL);
		vkFreeMemory(dev, m[i], NULL);
	}
	vkDestroyDevice(dev, NULL);
	vkDestroyInstance(inst, NULL);
	return 0;
}
