/* d3d11_scene.c - a Direct3D 11 test program (Windows, built with MinGW, run under wine):
 * each frame clears a 256x256 render target and its 32-bit depth buffer, draws two textured
 * quads with depth testing (the nearer one first, so the farther one is partly rejected), and
 * reads the target back; prints a checksum of the last frame, which must not change when the
 * program runs under the capture layer.
 *   d3d11_scene.exe [FRAMES]   (default 4)
 * Direct3D 11 reaches Vulkan through wine's wined3d (OpenGL) and Mesa's Zink. */
#define COBJMACROS
#define INITGUID
#include <d3d11.h>
#include <d3dcompiler.h>
#include <stdio.h>
#include <stdlib.h>
#include <windows.h>

#define W 256
#define H 256
#define TEX 64

static const char hlsl[] = "Texture2D tex : register(t0);\n"
			   "SamplerState smp : register(s0);\n"
			   "struct v2p { float4 pos : SV_Position; float2 uv : TEXCOORD0; };\n"
			   "v2p vs(float3 pos : POSITION, float2 uv : TEXCOORD0) {\n"
			   "  v2p o; o.pos = float4(pos, 1.0); o.uv = uv; return o; }\n"
			   "float4 ps(v2p i) : SV_Target { return tex.Sample(smp, i.uv); }\n";

struct vertex {
	float x, y, z, u, v;
};

/* Two quads: near (z 0.25) on the left, far (z 0.75) on the right, overlapping in the middle. */
static const struct vertex quads[12] = {
    {-0.9f, -0.6f, 0.25f, 0, 1}, {-0.9f, 0.6f, 0.25f, 0, 0}, {0.3f, 0.6f, 0.25f, 2, 0},
    {-0.9f, -0.6f, 0.25f, 0, 1}, {0.3f, 0.6f, 0.25f, 2, 0},  {0.3f, -0.6f, 0.25f, 2, 1},
    {-0.3f, -0.8f, 0.75f, 0, 1}, {-0.3f, 0.8f, 0.75f, 0, 0}, {0.9f, 0.8f, 0.75f, 1, 0},
    {-0.3f, -0.8f, 0.75f, 0, 1}, {0.9f, 0.8f, 0.75f, 1, 0},  {0.9f, -0.8f, 0.75f, 1, 1},
};

typedef HRESULT(WINAPI *compile_fn)(const void *, SIZE_T, const char *, const D3D_SHADER_MACRO *,
				    ID3DInclude *, const char *, const char *, UINT, UINT,
				    ID3DBlob **, ID3DBlob **);

static void die(const char *what, HRESULT hr)
{
	fprintf(stderr, "d3d11_scene: %s failed (0x%08lx)\n", what, (unsigned long)hr);
	exit(1);
}

static ID3DBlob *compile(const char *entry, const char *target)
{
	HMODULE m = LoadLibraryA("d3dcompiler_47.dll");
	compile_fn fn = m ? (compile_fn)(void *)GetProcAddress(m, "D3DCompile") : NULL;
	ID3DBlob *code = NULL, *errors = NULL;
	if (!fn)
		die("loading d3dcompiler_47.dll", E_FAIL);
	HRESULT hr = fn(hlsl, sizeof(hlsl) - 1, "scene.hlsl", NULL, NULL, entry, target, 0, 0,
			&code, &errors);
	if (FAILED(hr)) {
		if (errors)
			fprintf(stderr, "%s\n", (const char *)ID3D10Blob_GetBufferPointer(errors));
		die("D3DCompile", hr);
	}
	return code;
}

int main(int argc, char **argv)
{
	int frames = argc > 1 ? atoi(argv[1]) : 4;
	ID3D11Device *dev;
	ID3D11DeviceContext *ctx;
	D3D_FEATURE_LEVEL fl;
	HRESULT hr = D3D11CreateDevice(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, 0, NULL, 0,
				       D3D11_SDK_VERSION, &dev, &fl, &ctx);
	if (FAILED(hr))
		die("D3D11CreateDevice", hr);

	/* render target, its staging copy, depth buffer */
	D3D11_TEXTURE2D_DESC td = {W,
				   H,
				   1,
				   1,
				   DXGI_FORMAT_R8G8B8A8_UNORM,
				   {1, 0},
				   D3D11_USAGE_DEFAULT,
				   D3D11_BIND_RENDER_TARGET,
				   0,
				   0};
	ID3D11Texture2D *rt, *staging, *depth, *tex;
	ID3D11RenderTargetView *rtv;
	ID3D11DepthStencilView *dsv;
	if (FAILED(hr = ID3D11Device_CreateTexture2D(dev, &td, NULL, &rt)))
		die("CreateTexture2D (target)", hr);
	if (FAILED(hr = ID3D11Device_CreateRenderTargetView(dev, (ID3D11Resource *)rt, NULL, &rtv)))
		die("CreateRenderTargetView", hr);
	td.Usage = D3D11_USAGE_STAGING;
	td.BindFlags = 0;
	td.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
	if (FAILED(hr = ID3D11Device_CreateTexture2D(dev, &td, NULL, &staging)))
		die("CreateTexture2D (staging)", hr);
	td.Format = DXGI_FORMAT_D32_FLOAT;
	td.Usage = D3D11_USAGE_DEFAULT;
	td.BindFlags = D3D11_BIND_DEPTH_STENCIL;
	td.CPUAccessFlags = 0;
	if (FAILED(hr = ID3D11Device_CreateTexture2D(dev, &td, NULL, &depth)))
		die("CreateTexture2D (depth)", hr);
	if (FAILED(
		hr = ID3D11Device_CreateDepthStencilView(dev, (ID3D11Resource *)depth, NULL, &dsv)))
		die("CreateDepthStencilView", hr);

	/* a checkerboard texture, sampled with wrap */
	static unsigned texels[TEX * TEX];
	for (int y = 0; y < TEX; y++)
		for (int x = 0; x < TEX; x++)
			texels[y * TEX + x] = ((x / 8 + y / 8) & 1) ? 0xff2080e0u : 0xffe0c040u;
	D3D11_TEXTURE2D_DESC xd = {TEX,
				   TEX,
				   1,
				   1,
				   DXGI_FORMAT_R8G8B8A8_UNORM,
				   {1, 0},
				   D3D11_USAGE_IMMUTABLE,
				   D3D11_BIND_SHADER_RESOURCE,
				   0,
				   0};
	D3D11_SUBRESOURCE_DATA xdata = {texels, TEX * 4, 0};
	ID3D11ShaderResourceView *srv;
	if (FAILED(hr = ID3D11Device_CreateTexture2D(dev, &xd, &xdata, &tex)))
		die("CreateTexture2D (texture)", hr);
	if (FAILED(
		hr = ID3D11Device_CreateShaderResourceView(dev, (ID3D11Resource *)tex, NULL, &srv)))
		die("CreateShaderResourceView", hr);
	D3D11_SAMPLER_DESC sd = {D3D11_FILTER_MIN_MAG_MIP_LINEAR,
				 D3D11_TEXTURE_ADDRESS_WRAP,
				 D3D11_TEXTURE_ADDRESS_WRAP,
				 D3D11_TEXTURE_ADDRESS_WRAP,
				 0,
				 1,
				 D3D11_COMPARISON_NEVER,
				 {0, 0, 0, 0},
				 0,
				 D3D11_FLOAT32_MAX};
	ID3D11SamplerState *smp;
	if (FAILED(hr = ID3D11Device_CreateSamplerState(dev, &sd, &smp)))
		die("CreateSamplerState", hr);

	/* shaders, input layout, vertices, depth test LESS */
	ID3DBlob *vsb = compile("vs", "vs_4_0"), *psb = compile("ps", "ps_4_0");
	ID3D11VertexShader *vs;
	ID3D11PixelShader *ps;
	ID3D11InputLayout *il;
	if (FAILED(hr = ID3D11Device_CreateVertexShader(dev, ID3D10Blob_GetBufferPointer(vsb),
							ID3D10Blob_GetBufferSize(vsb), NULL, &vs)))
		die("CreateVertexShader", hr);
	if (FAILED(hr = ID3D11Device_CreatePixelShader(dev, ID3D10Blob_GetBufferPointer(psb),
						       ID3D10Blob_GetBufferSize(psb), NULL, &ps)))
		die("CreatePixelShader", hr);
	D3D11_INPUT_ELEMENT_DESC ie[2] = {
	    {"POSITION", 0, DXGI_FORMAT_R32G32B32_FLOAT, 0, 0, D3D11_INPUT_PER_VERTEX_DATA, 0},
	    {"TEXCOORD", 0, DXGI_FORMAT_R32G32_FLOAT, 0, 12, D3D11_INPUT_PER_VERTEX_DATA, 0}};
	if (FAILED(hr = ID3D11Device_CreateInputLayout(dev, ie, 2, ID3D10Blob_GetBufferPointer(vsb),
						       ID3D10Blob_GetBufferSize(vsb), &il)))
		die("CreateInputLayout", hr);
	D3D11_BUFFER_DESC bd = {
	    sizeof(quads), D3D11_USAGE_IMMUTABLE, D3D11_BIND_VERTEX_BUFFER, 0, 0, 0};
	D3D11_SUBRESOURCE_DATA vdata = {quads, 0, 0};
	ID3D11Buffer *vb;
	if (FAILED(hr = ID3D11Device_CreateBuffer(dev, &bd, &vdata, &vb)))
		die("CreateBuffer", hr);
	D3D11_DEPTH_STENCIL_DESC dd = {TRUE, D3D11_DEPTH_WRITE_MASK_ALL, D3D11_COMPARISON_LESS};
	ID3D11DepthStencilState *dss;
	if (FAILED(hr = ID3D11Device_CreateDepthStencilState(dev, &dd, &dss)))
		die("CreateDepthStencilState", hr);

	D3D11_VIEWPORT vp = {0, 0, W, H, 0, 1};
	UINT stride = sizeof(struct vertex), offset = 0;
	unsigned long long sum = 0;
	for (int f = 0; f < frames; f++) {
		const float clear[4] = {0.1f, 0.1f, 0.1f, 1};
		ID3D11DeviceContext_OMSetRenderTargets(ctx, 1, &rtv, dsv);
		ID3D11DeviceContext_ClearRenderTargetView(ctx, rtv, clear);
		ID3D11DeviceContext_ClearDepthStencilView(ctx, dsv, D3D11_CLEAR_DEPTH, 1.0f, 0);
		ID3D11DeviceContext_RSSetViewports(ctx, 1, &vp);
		ID3D11DeviceContext_OMSetDepthStencilState(ctx, dss, 0);
		ID3D11DeviceContext_IASetInputLayout(ctx, il);
		ID3D11DeviceContext_IASetPrimitiveTopology(ctx,
							   D3D11_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
		ID3D11DeviceContext_IASetVertexBuffers(ctx, 0, 1, &vb, &stride, &offset);
		ID3D11DeviceContext_VSSetShader(ctx, vs, NULL, 0);
		ID3D11DeviceContext_PSSetShader(ctx, ps, NULL, 0);
		ID3D11DeviceContext_PSSetShaderResources(ctx, 0, 1, &srv);
		ID3D11DeviceContext_PSSetSamplers(ctx, 0, 1, &smp);
		ID3D11DeviceContext_Draw(ctx, 6, 0); /* near quad */
		ID3D11DeviceContext_Draw(ctx, 6, 6); /* far quad, partly behind it */
		ID3D11DeviceContext_CopyResource(ctx, (ID3D11Resource *)staging,
						 (ID3D11Resource *)rt);
		D3D11_MAPPED_SUBRESOURCE map;
		if (FAILED(hr = ID3D11DeviceContext_Map(ctx, (ID3D11Resource *)staging, 0,
							D3D11_MAP_READ, 0, &map)))
			die("Map", hr);
		sum = 0;
		for (int y = 0; y < H; y++) {
			const unsigned *row =
			    (const unsigned *)((const char *)map.pData + (size_t)y * map.RowPitch);
			for (int x = 0; x < W; x++)
				sum = sum * 31 + row[x];
		}
		ID3D11DeviceContext_Unmap(ctx, (ID3D11Resource *)staging, 0);
	}
	printf("checksum %016llx\n", sum);
	return 0;
}
