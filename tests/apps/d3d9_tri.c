/* d3d9_tri.c - a Direct3D 9 test program (Windows, built with MinGW, run under wine): a
 * 256x256 window whose device clears color and depth and draws two overlapping triangles with
 * the fixed-function pipeline and depth testing each frame, then presents; prints a checksum
 * of the back buffer of the last frame.
 *   d3d9_tri.exe [FRAMES]   (default 4) */
#include <d3d9.h>
#include <stdio.h>
#include <stdlib.h>
#include <windows.h>

struct vertex {
	float x, y, z, rhw;
	DWORD color;
};

/* pre-transformed: the first (z 0.3) in front of the second (z 0.6) where they overlap */
static const struct vertex tris[6] = {
    {20, 230, 0.3f, 1, 0xffe04020}, {128, 20, 0.3f, 1, 0xffe04020}, {200, 230, 0.3f, 1, 0xffe04020},
    {60, 200, 0.6f, 1, 0xff2060e0}, {240, 40, 0.6f, 1, 0xff2060e0}, {240, 240, 0.6f, 1, 0xff2060e0},
};

static void die(const char *what, HRESULT hr)
{
	fprintf(stderr, "d3d9_tri: %s failed (0x%08lx)\n", what, (unsigned long)hr);
	exit(1);
}

int main(int argc, char **argv)
{
	int frames = argc > 1 ? atoi(argv[1]) : 4;
	WNDCLASSA wc = {0,    DefWindowProcA, 0,    0,    GetModuleHandleA(NULL),
			NULL, NULL,           NULL, NULL, "d3d9_tri"};
	RegisterClassA(&wc);
	HWND wnd = CreateWindowA("d3d9_tri", "d3d9_tri", WS_OVERLAPPEDWINDOW, 0, 0, 256, 256, NULL,
				 NULL, wc.hInstance, NULL);
	IDirect3D9 *d3d = Direct3DCreate9(D3D_SDK_VERSION);
	if (!d3d || !wnd)
		die("Direct3DCreate9", E_FAIL);
	D3DPRESENT_PARAMETERS pp = {0};
	pp.BackBufferWidth = 256;
	pp.BackBufferHeight = 256;
	pp.BackBufferFormat = D3DFMT_X8R8G8B8;
	pp.BackBufferCount = 1;
	pp.SwapEffect = D3DSWAPEFFECT_DISCARD;
	pp.hDeviceWindow = wnd;
	pp.Windowed = TRUE;
	pp.EnableAutoDepthStencil = TRUE;
	pp.AutoDepthStencilFormat = D3DFMT_D24S8;
	pp.PresentationInterval = D3DPRESENT_INTERVAL_IMMEDIATE;
	IDirect3DDevice9 *dev;
	HRESULT hr = IDirect3D9_CreateDevice(d3d, D3DADAPTER_DEFAULT, D3DDEVTYPE_HAL, wnd,
					     D3DCREATE_SOFTWARE_VERTEXPROCESSING, &pp, &dev);
	if (FAILED(hr))
		die("CreateDevice", hr);
	IDirect3DDevice9_SetRenderState(dev, D3DRS_ZENABLE, D3DZB_TRUE);
	IDirect3DDevice9_SetRenderState(dev, D3DRS_ZFUNC, D3DCMP_LESS);
	IDirect3DDevice9_SetRenderState(dev, D3DRS_LIGHTING, FALSE);
	IDirect3DDevice9_SetRenderState(dev, D3DRS_CULLMODE, D3DCULL_NONE);
	IDirect3DDevice9_SetFVF(dev, D3DFVF_XYZRHW | D3DFVF_DIFFUSE);
	unsigned long long sum = 0;
	for (int f = 0; f < frames; f++) {
		IDirect3DDevice9_Clear(dev, 0, NULL, D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER, 0xff101010,
				       1.0f, 0);
		IDirect3DDevice9_BeginScene(dev);
		IDirect3DDevice9_DrawPrimitiveUP(dev, D3DPT_TRIANGLELIST, 2, tris, sizeof(tris[0]));
		IDirect3DDevice9_EndScene(dev);
		/* the back buffer's pixels, for a checksum */
		IDirect3DSurface9 *bb, *sys;
		IDirect3DDevice9_GetBackBuffer(dev, 0, 0, D3DBACKBUFFER_TYPE_MONO, &bb);
		IDirect3DDevice9_CreateOffscreenPlainSurface(dev, 256, 256, D3DFMT_X8R8G8B8,
							     D3DPOOL_SYSTEMMEM, &sys, NULL);
		if (FAILED(hr = IDirect3DDevice9_GetRenderTargetData(dev, bb, sys)))
			die("GetRenderTargetData", hr);
		D3DLOCKED_RECT lr;
		IDirect3DSurface9_LockRect(sys, &lr, NULL, D3DLOCK_READONLY);
		sum = 0;
		for (int y = 0; y < 256; y++)
			for (int x = 0; x < 256; x++)
				sum = sum * 31 +
				      (((const DWORD *)((const char *)lr.pBits + y * lr.Pitch))[x] &
				       0xffffff);
		IDirect3DSurface9_UnlockRect(sys);
		IDirect3DSurface9_Release(sys);
		IDirect3DSurface9_Release(bb);
		IDirect3DDevice9_Present(dev, NULL, NULL, NULL, NULL);
	}
	printf("checksum %016llx\n", sum);
	return 0;
}
